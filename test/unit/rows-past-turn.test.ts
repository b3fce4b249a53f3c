import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseFixtureText, parseFixtureValue } from '../../src/fixture/read-fixture.js';
import { rowsPastTurn } from '../../src/fixture/turns/rows-past-turn.js';
import type { Fixture } from '../../src/fixture/format.js';

const text = readFileSync(new URL('../../fixtures/meridian-turn-23.json', import.meta.url), 'utf8');
const fresh = (): Fixture => structuredClone(parseFixtureText(text, 'meridian-turn-23.json'));

describe('rows past the captured turn, in a fixture of one row per turn', () => {
  it('finds none in a capture: turns 1..22 only', () => {
    const fixture = fresh();
    expect(fixture.tables.turns!.rows).toHaveLength(22);
    expect(rowsPastTurn(fixture)).toEqual([]);
  });

  it("refuses a fixture that also holds turn 23's row, naming the row", () => {
    const fixture = fresh();
    const last = fixture.tables.turns!.rows.at(-1)!;
    fixture.tables.turns!.rows.push({ ...last, id: '999999', turn_number: 23 });
    expect(() => parseFixtureValue(JSON.parse(JSON.stringify(fixture)), 'f.json')).toThrow(
      'f.json: $.tables.turns.rows[22]: is a row of turn 23, at or past the captured turn 23 (1 such row): the fixture is not the state before turn 23; capture it again',
    );
  });
});
