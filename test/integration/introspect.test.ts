import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { introspect } from '../../src/db/introspect.js';
import type { Catalog } from '../../src/db/catalog-types.js';

describe.each(BACKENDS)('catalog introspection on %s', (backend) => {
  let t: TestDb;
  let catalog: Catalog;

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    await t.db.pool.query(`
      CREATE DOMAIN positive_int AS integer CHECK (VALUE > 0);
      CREATE TABLE "Odd Name" ("Key Col" int PRIMARY KEY, "quoted""name" positive_int, scores positive_int[], stamps timestamp[]);`);
    catalog = await introspect(t.db.pool);
  });
  afterAll(async () => t?.cleanup());

  const table = (name: string) => catalog.tables.get(name)!;
  const column = (tableName: string, name: string) => table(tableName).columns.find((c) => c.name === name)!;

  it("lists the game tables but not turnkit's own bookkeeping", () => {
    expect([...catalog.tables.keys()].sort()).toEqual([
      'Odd Name',
      'campaigns',
      'characters',
      'decks',
      'location_connections',
      'locations',
      'turns',
      'users',
      'world_facts',
    ]);
    expect(table('Odd Name').sql).toBe('"public"."Odd Name"');
  });

  it('describes types, nullability, defaults, identity and generated columns', () => {
    expect(column('users', 'id')).toMatchObject({
      type: 'bigint',
      identity: 'always',
      nullable: false,
      codec: { kind: 'bigint' },
    });
    expect(column('campaigns', 'id').identity).toBe('by default');
    expect(column('characters', 'id')).toMatchObject({ type: 'uuid', default: 'gen_random_uuid()', identity: null });
    expect(column('characters', 'health_ratio').generated).toMatch(/round/);
    expect(column('characters', 'health_ratio').default).toBeNull();
    expect(column('location_connections', 'travel_minutes')).toMatchObject({
      type: 'numeric(6,2)',
      codec: { kind: 'numeric' },
    });
    expect(column('locations', 'tags')).toMatchObject({ type: 'text[]', codec: { kind: 'array', element: 'text' } });
    expect(column('turns', 'narration').nullable).toBe(true);
    expect(column('turns', 'played_at').codec.kind).toBe('timestamptz');
    expect(column('characters', 'portrait').codec.kind).toBe('bytea');
    // Domains resolve to their base type, also inside arrays.
    expect(column('Odd Name', 'quoted"name').codec).toEqual({ kind: 'int' });
    expect(column('Odd Name', 'scores').codec).toEqual({ kind: 'array', element: 'int' });
    expect(column('Odd Name', 'stamps').codec).toEqual({ kind: 'array', element: 'timestamp' });
  });

  it('finds composite, self-referencing, cyclic and deferrable foreign keys', () => {
    expect(table('decks').primaryKey).toEqual(['campaign_id', 'deck_number']);
    const fks = table('locations').foreignKeys;
    expect(fks.find((fk) => fk.references.table === 'decks')).toMatchObject({
      columns: ['campaign_id', 'deck_number'],
      references: { columns: ['campaign_id', 'deck_number'] },
    });
    expect(fks.find((fk) => fk.references.table === 'locations')).toMatchObject({
      columns: ['parent_location_id'],
      references: { columns: ['id'] },
    });
    expect(fks.find((fk) => fk.references.table === 'campaigns')?.columns).toEqual(['campaign_id']);
    const cycle = table('campaigns').foreignKeys.find((fk) => fk.references.table === 'locations')!;
    expect(cycle).toMatchObject({ columns: ['current_location_id'], deferrable: true, initiallyDeferred: true });
    expect(table('location_connections').primaryKey).toEqual(['from_location_id', 'to_location_id']);
    expect(table('users').uniqueKeys).toEqual([['email'], ['handle']]);
  });
});
