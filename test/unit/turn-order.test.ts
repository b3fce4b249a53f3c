import { describe, expect, it } from 'vitest';
import type { Codec, ColumnInfo, TableInfo } from '../../src/db/catalog-types.js';
import type { CollectedTable } from '../../src/fixture/capture/collect-owned.js';
import type { GameGraph } from '../../src/fixture/graph/game-graph.js';
import { identityColumns } from '../../src/fixture/graph/row-identity.js';
import { compareValues } from '../../src/fixture/row-order.js';
import { keyAt, type RawRow } from '../../src/fixture/capture/row-query.js';
import { orderTurns } from '../../src/fixture/turns/turn-order.js';
import { decodeValue } from '../../src/fixture/value-codec.js';
import { mulberry32 } from '../../src/util/seeded-random.js';

// orderTurns as it was (an object and a tie array per row, sorted stably): the index sort must agree with it.
function orderTurnsBefore(graph: GameGraph, turns: CollectedTable): string[] {
  const columns = graph.turns.columns;
  const orderIndex = columns.indexOf(graph.turnOrder);
  const identity = identityColumns(graph.turns).map((name) => columns.find((column) => column.name === name)!);
  const codec = graph.turnOrder.codec;
  const decode =
    codec.kind === 'int' || codec.kind === 'float' ? (v: string) => decodeValue(v, codec) : (v: string) => v;
  const entries = [...turns.rows.entries()].map(([key, row]) => {
    const order = row[orderIndex] ?? null;
    const rank = order === null ? 0 : order === '-infinity' ? -1 : order === 'infinity' ? 1 : 0;
    return {
      key,
      order,
      rank,
      decoded: order === null ? null : decode(order),
      tie:
        identity.length > 0
          ? identity.map((column) => decodeValue(row[columns.indexOf(column)] ?? null, column.codec))
          : [JSON.stringify(row.slice(0, columns.length))],
    };
  });
  const compareOrder = (a: (typeof entries)[number], b: (typeof entries)[number]): number => {
    if (a.order === null || b.order === null) return a.order === b.order ? 0 : a.order === null ? 1 : -1;
    if (a.rank !== b.rank) return a.rank - b.rank;
    return compareValues(a.decoded, b.decoded, codec);
  };
  entries.sort((a, b) => {
    const byOrder = compareOrder(a, b);
    if (byOrder !== 0) return byOrder;
    for (let i = 0; i < a.tie.length; i++) {
      const order = compareValues(a.tie[i], b.tie[i], identity[i]?.codec ?? { kind: 'text' });
      if (order !== 0) return order;
    }
    return 0;
  });
  return entries.map((entry) => entry.key);
}

const column = (name: string, codec: Codec, type: string): ColumnInfo => ({
  name,
  type,
  nullable: true,
  default: null,
  identity: null,
  generated: null,
  codec,
});

describe('turn order', () => {
  it('orders turn rows as the sort with an object per row did: NULLs, infinities, ties by key or by whole row', () => {
    const random = mulberry32(17);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const orders: [Codec, string, (string | null)[]][] = [
      [{ kind: 'int' }, 'integer', ['1', '2', '10', '-3', null]],
      [{ kind: 'float' }, 'double precision', ['1.5', '-0.25', '10', 'Infinity', '-Infinity', 'NaN', null]],
      [
        { kind: 'timestamptz' },
        'timestamp with time zone',
        ['2026-01-01 10:00:00+00', '2026-01-01 09:59:59.5+00', 'infinity', '-infinity', null],
      ],
    ];
    for (let round = 0; round < 150; round++) {
      const [codec, type, values] = orders[round % orders.length]!;
      const keyed = round % 2 === 0;
      const id = column('id', { kind: 'bigint' }, 'bigint');
      const order = column('at', codec, type);
      const table = {
        name: 'turns',
        columns: [id, order, column('note', { kind: 'text' }, 'text')],
        primaryKey: keyed ? ['id'] : [],
        uniqueKeys: [],
        foreignKeys: [],
      } as unknown as TableInfo;
      const identity = keyed ? [0] : [3];
      const rows = new Map<string, RawRow>();
      for (let i = 0; i < Math.floor(random() * 60); i++) {
        const row: RawRow = [String(Math.floor(random() * 1000)), pick(values), pick(['a', 'b', null])];
        if (!keyed) row.push(`1/(0,${i})`);
        const key = keyAt(row, identity)!;
        if (!rows.has(key)) rows.set(key, row);
      }
      const graph = { turns: table, turnOrder: order } as unknown as GameGraph;
      const turns: CollectedTable = { info: table, identity, rows };
      expect(orderTurns(graph, turns)).toEqual(orderTurnsBefore(graph, turns));
    }
  });
});
