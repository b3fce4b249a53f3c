import type { TableInfo } from '../db/catalog-types.js';

// The bookkeeping tables of migration tools (Prisma, Rails, Django, knex, kysely, node-pg-migrate, Flyway, goose,
// Drizzle, Sequelize, TypeORM): never a game's root, turns or shared table, whatever hangs off them.
const MIGRATION_TABLES = new Set([
  '_prisma_migrations',
  'schema_migrations',
  'ar_internal_metadata',
  'django_migrations',
  'knex_migrations',
  'knex_migrations_lock',
  'kysely_migration',
  'kysely_migration_lock',
  'pgmigrations',
  'flyway_schema_history',
  'goose_db_version',
  '__drizzle_migrations',
  'sequelizemeta',
  'migrations',
  'typeorm_metadata',
]);

/** Whether a table is a migration tool's bookkeeping (by its bare name, in any schema, any case). */
export function isMigrationTable(table: Pick<TableInfo, 'table'>): boolean {
  return MIGRATION_TABLES.has(table.table.toLowerCase());
}
