import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { EditSession } from '../../src/fixture/constructed/edit-session.js';
import { checkFixture } from '../../src/fixture/check-fixture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { fixtureSchema } from '../../src/fixture/format.js';
import { groupTurns, turnRange } from '../../src/fixture/turns/turn-groups.js';
import { turnOfRow, turnsInOrder } from '../../src/fixture/turns/turn-rows.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeDocument } from '../../src/fixture/format.js';
import { loadFixture } from '../../src/fixture/load-fixture.js';
import { rebase } from '../../src/fixture/constructed/rebase.js';
import { wholeNumber } from '../../src/cli/global-options.js';

// A fixture of turn 3 of a game whose turns are several rows, written by hand: turns 1 and 2 whole, turn 3's ACTION.
function gameFixture(): Fixture {
  const entry = (id: string, turn: number, type: string, content: string, minute: number) => ({
    id,
    roomId: 'r1',
    turn,
    type,
    content,
    createdAt: `2025-01-01T10:0${minute}:00.000`,
  });
  return fixtureSchema.parse({
    format: 'turnkit.fixture/1',
    name: 'crypt-turn-3',
    source: {
      database: 'embedded',
      serverVersion: '18',
      root: { table: 'Room', key: 'id', value: 'r1' },
      turns: {
        table: 'NarrativeEntry',
        order: 'createdAt',
        turn: 'turn',
        role: { column: 'type', input: ['ACTION'], labels: { NARRATION: 'GM' } },
      },
      turn: 3,
      latestTurn: 4,
      capturedAt: '1970-01-01T00:00:00.000Z',
      schemaFingerprint: 'sha256:x',
    },
    input: { turn: 3, values: { content: 'I light a torch.' } },
    tables: {
      NarrativeEntry: {
        role: 'owned',
        columns: ['id', 'roomId', 'turn', 'type', 'content', 'createdAt'].map((name) => ({
          name,
          type: name === 'turn' ? 'integer' : name === 'createdAt' ? 'timestamp(3) without time zone' : 'text',
          nullable: false,
        })),
        primaryKey: ['id'],
        foreignKeys: [{ name: 'fk', columns: ['roomId'], references: { table: 'Room', columns: ['id'] } }],
        // Keys sort unlike time: turns come from the turn column and the order column.
        rows: [
          entry('a6', 1, 'ACTION', 'I open the door.', 1),
          entry('a5', 1, 'NARRATION', 'The door creaks.\nIt is dark.', 2),
          entry('a4', 2, 'SYSTEM', 'Round 2.', 3),
          entry('a3', 2, 'ACTION', 'I step inside.', 4),
          entry('a2', 2, 'NARRATION', 'Darkness.', 5),
          entry('a1', 3, 'ACTION', 'I light a torch.', 6),
        ],
      },
      Room: {
        role: 'root',
        columns: [{ name: 'id', type: 'text', nullable: false }],
        primaryKey: ['id'],
        foreignKeys: [],
        rows: [{ id: 'r1' }],
      },
    },
  });
}

describe('game turns of several rows', () => {
  it('groups rows by the turn column, the input rows apart, and keeps the kept turns before the input turn', () => {
    const fixture = gameFixture();
    const turns = turnsInOrder(fixture);
    expect(
      turns.map((entry) => [entry.turn, entry.input.map((row) => row.id), entry.others.map((row) => row.id)]),
    ).toEqual([
      [1, ['a6'], ['a5']],
      [2, ['a3'], ['a4', 'a2']],
    ]);
    // Turn 3's ACTION is the fixture's input, kept as a row: its turn is 3, not a kept turn.
    expect(turnOfRow(fixture, 'a1')).toBe(3);
    expect(turnOfRow(fixture, 'a4')).toBe(2);
  });

  it('verify names a turn or role column the turns table does not have', () => {
    const fixture = gameFixture();
    expect(checkFixture(fixture)).toEqual([]);
    fixture.source.turns.role!.column = 'kind';
    fixture.source.turns.turn = 'round';
    expect(checkFixture(fixture).map((problem) => [problem.path.join('.'), problem.message])).toEqual([
      ['source.turns.turn', 'names unknown column "round" of "NarrativeEntry"'],
      ['source.turns.role.column', 'names unknown column "kind" of "NarrativeEntry"'],
    ]);
  });

  it("lists the editor's turns with the player's rows and the others apart", async () => {
    const session = new EditSession({ fixture: gameFixture(), path: '/x.json', shown: 'x.json', sha256: '0' });
    expect(session.turns()).toEqual([
      { turn: 1, input: 'I open the door.', narration: 'GM: The door creaks.', changed: false },
      { turn: 2, input: 'I step inside.', narration: 'SYSTEM: Round 2. · GM: Darkness.', changed: false },
    ]);
    // Every row of turn 2 is editable as turn 2; the row of turn 3 is not.
    expect(session.rowsOfTurn(2).map((row) => row.key)).toEqual(['a4', 'a3', 'a2']);
  });

  it('lists a prologue (turn 0) as a turn, and constructs, materializes and rebases a change to it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'turnkit-prologue-'));
    try {
      const base = gameFixture();
      const rows = base.tables.NarrativeEntry!.rows;
      rows.unshift({
        ...rows[1]!,
        id: 'a0',
        turn: 0,
        content: 'Welcome to the crypt.',
        createdAt: '2025-01-01T10:00:00.000',
      });
      await writeFile(join(dir, 'base.json'), serializeDocument(base));
      const opened = await loadFixture(join(dir, 'base.json'));
      const session = new EditSession(opened);
      expect(session.turns()[0]).toEqual({
        turn: 0,
        input: '',
        narration: 'GM: Welcome to the crypt.',
        changed: false,
      });
      expect(session.rowsOfTurn(0).map((row) => row.key)).toEqual(['a0']);
      session.setValue(0, 'NarrativeEntry', 'a0', 'content', 'Welcome to the tomb.');
      const saved = await session.save('tomb', 'does the prologue steer the GM?', dir);
      expect(saved.document.turn).toBe(0);
      const loaded = await loadFixture(saved.file);
      expect(loaded.fixture.tables.NarrativeEntry!.rows.find((row) => row.id === 'a0')!.content).toBe(
        'Welcome to the tomb.',
      );
      // The base recaptured with another turn's narration changed: the prologue's change applies again.
      const recaptured = structuredClone(base);
      recaptured.tables.NarrativeEntry!.rows.find((row) => row.id === 'a2')!.content = 'Pitch dark.';
      await writeFile(join(dir, 'base.json'), serializeDocument(recaptured));
      expect(await rebase({ cwd: dir, paths: { baseDir: dir } }, { constructed: saved.file })).toMatchObject({
        rewritten: true,
        changes: 1,
      });
      expect(
        (await loadFixture(saved.file)).fixture.tables.NarrativeEntry!.rows.find((row) => row.id === 'a0')!.content,
      ).toBe('Welcome to the tomb.');
      // The command line takes --turn 0; a fixture of one row per turn still has no turn 0.
      expect(wholeNumber('0')).toBe(0);
      expect(() => wholeNumber('-1')).toThrow('expected a whole number, got "-1"');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('starts a turn at each input row when there is no turn column; rows before the first are turn 0', () => {
    const rows = ['gm:hello', 'user:hi', 'gm:a', 'gm:b', 'user:go', 'gm:c'];
    const groups = groupTurns({ role: { column: 'role', input: ['user'] } }, rows, {
      turnValue: () => null,
      roleValue: (row) => (row.startsWith('user') ? 'user' : 'gm'),
    });
    expect(groups.map((group) => [group.turn, group.input, group.others])).toEqual([
      [0, [], ['gm:hello']],
      [1, ['user:hi'], ['gm:a', 'gm:b']],
      [2, ['user:go'], ['gm:c']],
    ]);
    // One row per turn when neither is declared.
    expect(groupTurns({}, ['x', 'y'], { turnValue: () => null, roleValue: () => null }).map((g) => g.turn)).toEqual([
      1, 2,
    ]);
    expect(turnRange([1, 2, 3, 4, 7, 9, 10])).toBe('1..4, 7, 9..10');
  });

  it('refuses a turn column without a role, and an output row without its role value', () => {
    const game = (turns: Record<string, unknown>) => ({
      game: {
        root: { table: 'rooms', key: 'id' },
        turns: { table: 'entries', order: 'at', input: ['content'], ...turns },
      },
    });
    const issues = (turns: Record<string, unknown>) =>
      configSchema.safeParse(game(turns)).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ turn: 'turn' })).toEqual([
      ['game.turns.turn', "needs role: say which rows of a turn are the player's input (role.column, role.input)"],
    ]);
    expect(issues({ output: ['content'], role: { column: 'type', input: ['ACTION'] } })).toEqual([
      ['game.turns.output', 'with role, needs role.output: the role value of the output row turnkit writes'],
    ]);
    expect(issues({ turn: 'turn', role: { column: 'type', input: ['ACTION'], output: 'NARRATION' } })).toBeUndefined();
    expect(issues({ role: { column: 'type', input: [] } })).toEqual([
      ['game.turns.role.input', 'name at least one input role value'],
    ]);
  });
});
