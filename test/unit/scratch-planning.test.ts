import { describe, expect, it } from 'vitest';
import type { ColumnInfo, ForeignKeyInfo, TableInfo } from '../../src/db/catalog-types.js';
import { dependencyOrder } from '../../src/scratch/dependency-order.js';
import { planKeys } from '../../src/scratch/remap/key-plan.js';

const column = (name: string, extra: Partial<ColumnInfo> = {}): ColumnInfo => ({
  name,
  type: 'bigint',
  nullable: true,
  default: null,
  identity: null,
  generated: null,
  codec: { kind: 'bigint' },
  ...extra,
});
const fk = (
  columns: string[],
  table: string,
  references: string[],
  extra: Partial<ForeignKeyInfo> = {},
): ForeignKeyInfo => ({
  name: `${columns.join('_')}_fkey`,
  columns,
  references: { table, columns: references },
  deferrable: false,
  initiallyDeferred: false,
  onDelete: 'no action',
  ...extra,
});
const table = (
  name: string,
  columns: ColumnInfo[],
  primaryKey: string[],
  foreignKeys: ForeignKeyInfo[] = [],
  uniqueKeys: string[][] = [],
): TableInfo => ({
  name,
  schema: 'public',
  table: name,
  sql: `"public"."${name}"`,
  from: `ONLY "public"."${name}"`,
  columns,
  primaryKey,
  uniqueKeys,
  foreignKeys,
});
const tables = (...list: TableInfo[]): Map<string, TableInfo> => new Map(list.map((info) => [info.name, info]));

describe('planKeys', () => {
  it('allocates identity, serial and uuid keys and derives every foreign key that follows them, composite ones too', () => {
    const plan = planKeys(
      tables(
        table('campaigns', [column('id', { identity: 'always', nullable: false })], ['id']),
        table(
          'decks',
          [column('campaign_id'), column('deck_number', { type: 'integer' })],
          ['campaign_id', 'deck_number'],
          [fk(['campaign_id'], 'campaigns', ['id'])],
        ),
        table(
          'rooms',
          [
            column('id', { default: "nextval('rooms_id_seq'::regclass)" }),
            column('campaign_id'),
            column('deck_number'),
            column('parent_id'),
          ],
          ['id'],
          [
            fk(['campaign_id', 'deck_number'], 'decks', ['campaign_id', 'deck_number']),
            fk(['parent_id'], 'rooms', ['id']),
          ],
        ),
        table('npcs', [column('id', { type: 'uuid' }), column('room_id')], ['id'], [fk(['room_id'], 'rooms', ['id'])]),
      ),
    );
    expect([...plan.keys.get('campaigns')!.allocated]).toEqual([['id', { kind: 'sequence' }]]);
    expect([...plan.keys.get('rooms')!.allocated]).toEqual([
      ['id', { kind: 'default', expression: "nextval('rooms_id_seq'::regclass)" }],
    ]);
    expect([...plan.keys.get('npcs')!.allocated]).toEqual([['id', { kind: 'uuid' }]]);
    expect([...plan.keys.get('decks')!.derived]).toEqual([['campaign_id', { table: 'campaigns', column: 'id' }]]);
    // Through decks to campaigns; deck_number is no key of its own and stays.
    expect(Object.fromEntries(plan.keys.get('rooms')!.derived)).toEqual({
      campaign_id: { table: 'campaigns', column: 'id' },
      parent_id: { table: 'rooms', column: 'id' },
    });
  });

  it('gives a client-made text key fresh values, and a composite key holding a remapped column none', () => {
    const game = tables(
      table('campaigns', [column('id', { identity: 'by default' })], ['id']),
      table(
        'spells',
        [column('slug', { type: 'text' }), column('campaign_id')],
        ['slug'],
        [fk(['campaign_id'], 'campaigns', ['id'])],
      ),
    );
    const planned = planKeys(game);
    expect([...planned.keys.get('spells')!.allocated]).toEqual([['slug', { kind: 'text' }]]);
    expect(planned.problems).toEqual([]);
    const scoped = tables(game.get('campaigns')!, { ...game.get('spells')!, primaryKey: ['campaign_id', 'slug'] });
    expect([...planKeys(scoped).keys.get('spells')!.allocated]).toEqual([]);
  });

  it('gives an integer key without a sequence a range, and a unique code fresh values unless kept', () => {
    const game = tables(
      table(
        'rooms',
        [column('id', { type: 'integer' }), column('code', { type: 'character(6)' })],
        ['id'],
        [],
        [['code']],
      ),
      table(
        'seats',
        [column('room_id'), column('seat', { type: 'integer' })],
        [],
        [fk(['room_id'], 'rooms', ['id'])],
        [['room_id', 'seat']],
      ),
    );
    const planned = planKeys(game);
    expect(Object.fromEntries(planned.keys.get('rooms')!.allocated)).toEqual({
      id: { kind: 'range' },
      code: { kind: 'text' },
    });
    // The seat number is a position inside a remapped room: it stays.
    expect([...planned.keys.get('seats')!.allocated]).toEqual([]);
    expect(planned.keys.get('seats')!.derived.get('room_id')).toEqual({ table: 'rooms', column: 'id' });
    const kept = planKeys(game, new Set(['rooms.code']));
    expect([...kept.keys.get('rooms')!.allocated.keys()]).toEqual(['id']);
    expect(kept.problems).toEqual([]);
  });

  it('reports a key with no column it can freshen, naming the table and the database strategy, without throwing', () => {
    const game = tables(
      table('campaigns', [column('id', { identity: 'by default' })], ['id']),
      table(
        'days',
        [column('day', { type: 'date', codec: { kind: 'text' } }), column('campaign_id')],
        ['day'],
        [fk(['campaign_id'], 'campaigns', ['id'])],
      ),
    );
    expect(planKeys(game).problems).toEqual([
      'table "days": its primary key (day) has no column turnkit can give a fresh value (text or integer, not a reference), ' +
        'so a scratch copy would collide with the captured rows; use --strategy database (a database of its own per rep)',
    ]);
  });
});

describe('dependencyOrder', () => {
  const campaigns = (deferrable: boolean, nullable: boolean) =>
    table(
      'campaigns',
      [column('id'), column('current_room_id', { nullable })],
      ['id'],
      [fk(['current_room_id'], 'rooms', ['id'], { deferrable })],
    );
  const rooms = table(
    'rooms',
    [column('id'), column('campaign_id', { nullable: false }), column('parent_id')],
    ['id'],
    [fk(['campaign_id'], 'campaigns', ['id']), fk(['parent_id'], 'rooms', ['id'])],
  );

  it('puts parents first, leaves self-references alone, and breaks a cycle at its deferrable edge', () => {
    const order = dependencyOrder(tables(rooms, campaigns(true, false)));
    expect(order.order).toEqual(['campaigns', 'rooms']);
    expect(order.deferred.map((edge) => `${edge.table}.${edge.fk.columns}`)).toEqual(['campaigns.current_room_id']);
    expect(order.nulled).toEqual([]);
  });

  it('breaks a cycle without a deferrable edge at a nullable one, and refuses a cycle with neither', () => {
    const order = dependencyOrder(tables(rooms, campaigns(false, true)));
    expect(order.order).toEqual(['campaigns', 'rooms']);
    expect(order.nulled.map((edge) => `${edge.table}.${edge.fk.columns}`)).toEqual(['campaigns.current_room_id']);
    expect(() => dependencyOrder(tables(rooms, campaigns(false, false)))).toThrow(
      'tables campaigns, rooms reference each other through foreign keys that are neither deferrable nor nullable',
    );
  });
});

describe('planKeys and shared tables', () => {
  it('keeps a uuid key column that references a shared table (it names a user, not a row of the campaign)', () => {
    const plan = planKeys(
      tables(
        table('campaigns', [column('id', { identity: 'always' })], ['id']),
        table(
          'members',
          [column('campaign_id'), column('user_id', { type: 'uuid' })],
          ['campaign_id', 'user_id'],
          [fk(['campaign_id'], 'campaigns', ['id']), fk(['user_id'], 'users', ['id'])],
        ),
      ),
    );
    expect([...plan.keys.get('members')!.allocated]).toEqual([]);
    expect([...plan.keys.get('members')!.derived.keys()]).toEqual(['campaign_id']);
  });
});
