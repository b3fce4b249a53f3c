import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { captureRoomA, cuid, prismaStyleDb } from '../helpers/prisma-style-schema.js';
import type { Fixture } from '../../src/fixture/format.js';
import { fixtureSchema } from '../../src/fixture/format.js';
import { checkSingleTurn } from '../../src/fixture/turns/single-turn-rule.js';
import { parseFixtureValue } from '../../src/fixture/read-fixture.js';
import { rowsPastTurn } from '../../src/fixture/turns/rows-past-turn.js';
import { rowKey } from '../../src/fixture/row-key.js';
import { rowsTiedToTurn, turnOfTiedRow } from '../../src/fixture/turns/turn-rows.js';

// The votes of the Prisma-style game have no foreign key to the narration: they are sliced by their own `turn`
// column (game.turnColumns). The fixture records that column, so a vote is its turn's row for the single-turn rule
// and the editor, as a narration entry is.
describe.each(BACKENDS)('a fixture of tables sliced by their own turn column on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    t = await prismaStyleDb(backend);
    fixture = await captureRoomA(t);
  }, 120_000);
  afterAll(async () => t?.cleanup());

  it('records the turn columns in the source, in a fixture the format accepts', () => {
    expect(fixture.source.turnColumns).toEqual({ votes: 'turn' });
    expect(fixtureSchema.parse(JSON.parse(JSON.stringify(fixture))).source.turnColumns).toEqual({ votes: 'turn' });
  });

  it("ties a vote to its turn: the single-turn rule lets turn 2's vote change, not turn 1's", () => {
    expect([...(rowsTiedToTurn(fixture, 2).get('votes') ?? [])]).toEqual([rowKeyOf(fixture, cuid('votea2'))]);
    expect(turnOfTiedRow(fixture, 'votes', rowKeyOf(fixture, cuid('votea1')))).toBe(1);
    const change = (label: string) => ({
      table: 'votes',
      row: rowKeyOf(fixture, cuid(label)),
      column: 'choice',
      oldValue: 'left',
      value: 'right',
    });
    expect(checkSingleTurn(fixture, [change('votea2')], 2)).toEqual([]);
    const problems = checkSingleTurn(fixture, [change('votea1')], 2);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('not a row of turn 2');
  });
  it('flags rows past the captured turn: the rest of turn 3, a later turn, a vote of turn 3', () => {
    expect(rowsPastTurn(fixture)).toEqual([]);
    const edited = structuredClone(fixture);
    const entries = edited.tables.NarrativeEntry!.rows;
    const action = entries.find((row) => row.turn === 3 && row.type === 'ACTION')!;
    entries.push({ ...action, id: cuid('late3narr'), type: 'NARRATION', content: 'Room 3 is empty.' });
    entries.push({ ...action, id: cuid('late4act'), turn: 4 });
    const votes = edited.tables.votes!.rows;
    votes.push({ ...votes[0]!, id: cuid('late3vote'), turn: 3 });
    expect(() => parseFixtureValue(JSON.parse(JSON.stringify(edited)), 'f.json')).toThrow(
      `f.json: $.tables.NarrativeEntry.rows[${entries.length - 2}]: is a non-input row of turn 3, at or past the captured turn 3 (2 such rows)`,
    );
    expect(rowsPastTurn(edited).map((problem) => problem.path)).toEqual([
      ['tables', 'NarrativeEntry', 'rows', entries.length - 2],
      ['tables', 'votes', 'rows', votes.length - 1, 'turn'],
    ]);
  });
});

// The changeset key of a votes row by its id.
function rowKeyOf(fixture: Fixture, id: string): string {
  const table = fixture.tables.votes!;
  return rowKey(table.rows.find((row) => row.id === id)!, table.primaryKey);
}
