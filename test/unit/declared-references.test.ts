import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import type { Catalog, ColumnInfo, ForeignKeyInfo, TableInfo } from '../../src/db/catalog-types.js';
import { withDeclaredReferences } from '../../src/fixture/graph/declared-references.js';
import { turnLikeColumn } from '../../src/fixture/turns/turn-columns.js';
import { dependencyOrder } from '../../src/scratch/dependency-order.js';
import { planKeys } from '../../src/scratch/remap/key-plan.js';

const column = (name: string, type = 'text', extra: Partial<ColumnInfo> = {}): ColumnInfo => ({
  name,
  type,
  nullable: false,
  default: null,
  identity: null,
  generated: null,
  codec: { kind: type === 'integer' ? 'int' : 'text' },
  ...extra,
});
const table = (
  name: string,
  columns: ColumnInfo[],
  primaryKey: string[],
  extra: Partial<TableInfo> = {},
): TableInfo => {
  const dot = name.indexOf('.');
  const [schema, bare] = dot > 0 ? [name.slice(0, dot), name.slice(dot + 1)] : ['public', name];
  return {
    name,
    schema,
    table: bare,
    sql: `"${schema}"."${bare}"`,
    from: `ONLY "${schema}"."${bare}"`,
    columns,
    primaryKey,
    uniqueKeys: [],
    foreignKeys: [],
    ...extra,
  };
};
const roomFk: ForeignKeyInfo = {
  name: 'players_room_id_fkey',
  columns: ['room_id'],
  references: { table: 'saga.rooms', columns: ['id'] },
  deferrable: false,
  initiallyDeferred: false,
  onDelete: 'no action',
};
const catalog = (): Catalog => ({
  serverVersion: '15',
  tables: new Map(
    [
      table(
        'saga.rooms',
        [column('id', 'uuid', { default: 'gen_random_uuid()' }), column('code', 'varchar(6)')],
        ['id'],
        {
          uniqueKeys: [['code']],
        },
      ),
      table(
        'saga.votes',
        [column('id', 'integer', { identity: 'always' }), column('roomId'), column('n', 'integer')],
        ['id'],
      ),
      table('saga.players', [column('id', 'integer', { identity: 'always' }), column('room_id', 'uuid')], ['id'], {
        foreignKeys: [roomFk],
      }),
    ].map((info) => [info.name, info]),
  ),
});
const game = (references: Record<string, string>) =>
  configSchema.parse({
    game: {
      root: { table: 'saga.rooms', key: 'id' },
      turns: { table: 'saga.votes', order: 'n', input: ['n'] },
      references,
    },
  }).game;
const declare = (base: Catalog, references: Record<string, string>): Catalog =>
  withDeclaredReferences(base, { game: game(references), file: undefined });

describe('withDeclaredReferences', () => {
  it('adds a foreign key marked declared, splitting a schema-qualified name at its last dot, and remap derives it', () => {
    const base = catalog();
    const declared = declare(base, { 'saga.votes.roomId': 'saga.rooms' });
    expect(declared.tables.get('saga.votes')!.foreignKeys).toEqual([
      {
        name: 'saga.votes.roomId',
        columns: ['roomId'],
        references: { table: 'saga.rooms', columns: ['id'] },
        deferrable: false,
        initiallyDeferred: false,
        onDelete: 'no action',
        declared: true,
      },
    ]);
    // The introspected catalog is left as it was; the same declarations give back the same catalog.
    expect(base.tables.get('saga.votes')!.foreignKeys).toEqual([]);
    expect(declare(base, { 'saga.votes.roomId': 'saga.rooms' })).toBe(declared);
    expect(declare(declared, { 'saga.votes.roomId': 'saga.rooms' })).toBe(declared);
    expect(declare(declared, {})).toBe(base);
    const remapped = new Map<string, TableInfo>([...declared.tables].filter(([name]) => name !== 'saga.players'));
    const { keys } = planKeys(remapped);
    expect(keys.get('saga.votes')!.derived).toEqual(new Map([['roomId', { table: 'saga.rooms', column: 'id' }]]));
  });

  it("takes 'table.column' for a one-column unique key", () => {
    const declared = declare(catalog(), { 'saga.votes.roomId': 'saga.rooms.code' });
    expect(declared.tables.get('saga.votes')!.foreignKeys[0]!.references).toEqual({
      table: 'saga.rooms',
      columns: ['code'],
    });
  });

  it('refuses a target that is not a key, a column of another type, and a column that has a foreign key', () => {
    expect(() => declare(catalog(), { 'saga.votes.roomId': 'saga.votes.roomId' })).toThrow(
      '<sample game config>: $.game.references["saga.votes.roomId"]: "saga.votes"."roomId" is not a one-column primary or unique key of "saga.votes": a reference names one row',
    );
    expect(() => declare(catalog(), { 'saga.votes.n': 'saga.rooms' })).toThrow(
      '<sample game config>: $.game.references["saga.votes.n"]: "saga.votes"."n" is integer but "saga.rooms"."id" is uuid: a reference holds values of the key\'s type',
    );
    expect(() => declare(catalog(), { 'saga.players.room_id': 'saga.rooms' })).toThrow(
      '<sample game config>: $.game.references["saga.players.room_id"]: "saga.players"."room_id" is a foreign key already: declare only columns without one',
    );
    expect(() => declare(catalog(), { 'saga.votes.roomid': 'saga.rooms' })).toThrow(
      '<sample game config>: $.game.references["saga.votes.roomid"]: table "saga.votes" has no column "roomid" (did you mean "roomId"?)',
    );
  });

  it('leaves declared references out of the insert order: the database enforces nothing there', () => {
    const declared = declare(catalog(), { 'saga.votes.roomId': 'saga.rooms' });
    // A NOT NULL, non-deferrable cycle made only of declarations is no cycle to break.
    const cyclic = new Map(declared.tables);
    const rooms = cyclic.get('saga.rooms')!;
    cyclic.set('saga.rooms', {
      ...rooms,
      foreignKeys: [
        {
          ...declared.tables.get('saga.votes')!.foreignKeys[0]!,
          name: 'back',
          columns: ['code'],
          references: { table: 'saga.votes', columns: ['id'] },
        },
      ],
    });
    expect(dependencyOrder(cyclic)).toEqual({
      order: ['saga.rooms', 'saga.votes', 'saga.players'],
      deferred: [],
      nulled: [],
    });
  });
});

describe('turnLikeColumn', () => {
  it('finds an integer column named like a turn, whatever its case and underscores, and nothing else', () => {
    const find = (...columns: ColumnInfo[]) => turnLikeColumn(table('t', columns, []))?.name;
    expect(find(column('id', 'integer'), column('turn_number', 'integer'))).toBe('turn_number');
    expect(find(column('TurnNumber', 'integer'))).toBe('TurnNumber');
    expect(find(column('round', 'integer'), column('turn', 'integer'))).toBe('turn');
    expect(find(column('turnIndex', 'integer'))).toBe('turnIndex');
    expect(find(column('turn'))).toBeUndefined();
    expect(find(column('returns', 'integer'))).toBeUndefined();
  });
});
