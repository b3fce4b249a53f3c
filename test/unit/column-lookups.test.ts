import { describe, expect, it } from 'vitest';
import type { ColumnInfo } from '../../src/db/catalog-types.js';
import type { TableKeys } from '../../src/scratch/remap/key-plan.js';
import { columnLookups, type KeyMap } from '../../src/scratch/remap/remap-rows.js';

const column = (name: string): ColumnInfo => ({
  name,
  type: 'integer',
  nullable: false,
  default: null,
  identity: null,
  generated: null,
  codec: { kind: 'int' },
});

// turns.id is allocated; turns.player_id points at players.id.
const keys: TableKeys = {
  allocated: new Map([['id', { kind: 'sequence' }]]),
  derived: new Map([['player_id', { table: 'players', column: 'id' }]]),
};
const columns = [column('id'), column('player_id'), column('text')];

describe('columnLookups', () => {
  it('gives each key column its lookup and leaves other columns alone', () => {
    const ids = new Map([['1', '101']]);
    const players = new Map([['7', '707']]);
    const keyMap: KeyMap = new Map([
      ['turns', new Map([['id', ids]])],
      ['players', new Map([['id', players]])],
    ]);
    const { key } = columnLookups(keys, 'turns', columns, keyMap, true);
    expect(key).toEqual([ids, players, undefined]);
  });

  it("throws for a planned key the seed's own map lacks, rather than write the fixture's key into the game", () => {
    const keyMap: KeyMap = new Map([['turns', new Map([['id', new Map([['1', '101']])]])]]);
    expect(() => columnLookups(keys, 'turns', columns, keyMap, true)).toThrow(
      "turns: the seed's key map has no players.id (a planned key)",
    );
  });

  it('leaves a key alone when a recorded map read back lacks it (a column that allocated nothing)', () => {
    const keyMap: KeyMap = new Map([['turns', new Map([['id', new Map([['101', '1']])]])]]);
    expect(columnLookups(keys, 'turns', columns, keyMap).key[1]).toBeUndefined();
  });
});
