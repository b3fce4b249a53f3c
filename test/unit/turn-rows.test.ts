import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseFixtureText } from '../../src/fixture/read-fixture.js';
import { rowsTiedToTurn, turnOfTiedRow, turnsInOrder } from '../../src/fixture/turns/turn-rows.js';

const file = fileURLToPath(new URL('../../fixtures/meridian-turn-23.json', import.meta.url));
const fixture = parseFixtureText(readFileSync(file, 'utf8'), 'meridian-turn-23.json');

describe('rows tied to a turn', () => {
  it('numbers turns by the order column, not by key or file order', () => {
    const shuffled = structuredClone(fixture);
    shuffled.tables.turns!.rows.reverse();
    expect(turnsInOrder(shuffled).map((entry) => entry.rows[0]!.turn_number)).toEqual(
      Array.from({ length: 22 }, (_, i) => i + 1),
    );
  });

  it("ties a turn's own row and the facts it introduced, and nothing campaign-level", () => {
    expect(Object.fromEntries([...rowsTiedToTurn(fixture, 18)].map(([table, keys]) => [table, [...keys]]))).toEqual({
      turns: ['18'],
      world_facts: ['7'],
    });
    expect(Object.fromEntries([...rowsTiedToTurn(fixture, 19)].map(([table, keys]) => [table, [...keys]]))).toEqual({
      turns: ['19'],
    });
  });

  it('finds the turn of any tied row by its foreign keys, agreeing with rowsTiedToTurn', () => {
    for (const { turn } of turnsInOrder(fixture)) {
      for (const [table, keys] of rowsTiedToTurn(fixture, turn)) {
        for (const key of keys) expect(turnOfTiedRow(fixture, table, key), `${table} ${key}`).toBe(turn);
      }
    }
    expect(turnOfTiedRow(fixture, 'world_facts', '1')).toBeUndefined();
    expect(turnOfTiedRow(fixture, 'campaigns', '1')).toBeUndefined();
  });
});
