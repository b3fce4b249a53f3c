// Test migration for turnkit upgrade: a renamed column.
import { sql, type Kysely } from 'kysely';

/** Renames locations.description to details. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE locations RENAME COLUMN description TO details`.execute(db);
}

/** Renames it back. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE locations RENAME COLUMN details TO description`.execute(db);
}
