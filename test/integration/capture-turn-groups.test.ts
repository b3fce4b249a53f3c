import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeDocument } from '../../src/fixture/format.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { captureFromDb, type CaptureRequest } from '../../src/fixture/capture/capture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { summarizeFixture } from '../../src/fixture/show-fixture.js';
import { renderCaseFile } from '../../src/question/case-file.js';
import { checkSingleTurn, turnProblem } from '../../src/fixture/turns/single-turn-rule.js';
import { rowsTiedToTurn, turnOfRow, turnsInOrder } from '../../src/fixture/turns/turn-rows.js';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import {
  CHAT_CONFIG,
  CHAT_DATA,
  CHAT_SCHEMA,
  ENTRIES,
  entryIds,
  NARRATIVE_CONFIG,
  NARRATIVE_DATA,
  NARRATIVE_SCHEMA,
  ROOM,
} from '../helpers/narrative-schema.js';

const ids = (fixture: Fixture, table: string): unknown[] => fixture.tables[table]!.rows.map((row) => row.id);

describe.each(BACKENDS)('a game whose turns are several rows (Prisma-style) on %s', (backend) => {
  let t: TestDb;
  const capture = async (turns: CaptureRequest['turns'], extra: Partial<CaptureRequest> = {}): Promise<Fixture[]> =>
    (await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign: ROOM, turns, now: new Date(0), ...extra }))
      .fixtures;

  beforeAll(async () => {
    t = await createTestDb(backend, NARRATIVE_CONFIG);
    await t.db.pool.query(NARRATIVE_SCHEMA);
    await t.db.pool.query(NARRATIVE_DATA);
  });
  afterAll(async () => t?.cleanup());

  it("keeps exactly the rows of turns 1..N-1 plus turn N's input rows", async () => {
    const [fixture] = await capture({ turn: 4 });
    // Hand-counted: turns 1-3 are cmz01..cmr09; of turn 4 only its ACTION cmp11 (its SYSTEM note cmq10 comes first).
    expect(ids(fixture!, 'NarrativeEntry')).toEqual(
      ['cmz01', 'cmy02', 'cmx03', 'cmw04', 'cmv05', 'cmu06', 'cmt07', 'cms08', 'cmr09', 'cmp11'].sort(),
    );
    expect(fixture!.input).toEqual({ turn: 4, values: { content: 'I read the runes.' } });
    // A reaction to a left-out narration is cut; reactions to kept rows stay.
    expect(ids(fixture!, 'Reaction')).toEqual(['cr1', 'cr2', 'cr3']);
    expect(fixture!.source.turn).toBe(4);
    expect(fixture!.source.latestTurn).toBe(7);
    expect(fixture!.source.turns).toEqual({
      table: 'NarrativeEntry',
      order: 'createdAt',
      turn: 'turn',
      role: { column: 'type', input: ['ACTION'], labels: { NARRATION: 'GM', DICE: 'Dice' } },
    });
    expect(Object.keys(fixture!.source.turns)).toEqual(['table', 'order', 'turn', 'role']);
  });

  it('checks each turn against the hand count, over a range with a gap in the numbering', async () => {
    const fixtures = await capture({ from: 2, to: 7 });
    expect(fixtures.map((fixture) => fixture.input.turn)).toEqual([2, 3, 4, 7]);
    for (const fixture of fixtures) {
      const n = fixture.input.turn;
      expect(ids(fixture, 'NarrativeEntry'), `turn ${n}`).toEqual(
        entryIds((entry) => entry.turn < n || (entry.turn === n && entry.type === 'ACTION')),
      );
      expect(fixture.input.values.content).toBe(ENTRIES.find((e) => e.turn === n && e.type === 'ACTION')!.content);
    }
  });

  it("--latest takes the last game turn's ACTION as the input, not its narration", async () => {
    const [fixture] = await capture({ latest: true });
    expect(fixture!.input).toEqual({ turn: 7, values: { content: 'I run.' } });
    expect(ids(fixture!, 'NarrativeEntry')).toEqual(entryIds((entry) => entry.turn < 7 || entry.id === 'cmn13'));
  });

  it("--ahead records only the next turns' ACTION rows, with the game's turn numbers", async () => {
    const [fixture] = await capture({ turn: 3 }, { ahead: 3 });
    expect(fixture!.ahead).toEqual([
      { turn: 4, values: { content: 'I read the runes.' } },
      { turn: 7, values: { content: 'I run.' } },
    ]);
    await expect(capture({ turn: 4 }, { ahead: 3 })).rejects.toThrow(
      '--ahead 3: turn 4 plus 2 turn(s) ahead reaches 2 more turn(s), past the last turn of the campaign (7)',
    );
  });

  it('refuses a turn the game does not have, listing the ones it has', async () => {
    await expect(capture({ turn: 5 })).rejects.toThrow('turn 5 is not a turn of the campaign (it has turns 1..4, 7)');
  });

  it("show lists the game turns with the player's rows and the others apart", async () => {
    const [fixture] = await capture({ turn: 4 });
    const summary = summarizeFixture(fixture!);
    expect(summary.turnsKept).toBe(3);
    expect(summary.turns).toEqual([
      {
        turn: 1,
        input: ['I open the door.'],
        others: [
          { speaker: 'Dice', text: 'd20: 14' },
          { speaker: 'GM', text: 'The door creaks open.' },
        ],
      },
      {
        turn: 2,
        input: ['I step inside.'],
        others: [
          { speaker: 'GM', text: 'Darkness swallows you.' },
          { speaker: 'SYSTEM', text: 'Ada joined the room.' },
        ],
      },
      {
        turn: 3,
        input: ['I light a torch.'],
        others: [
          { speaker: 'Dice', text: 'd20: 3' },
          { speaker: 'GM', text: 'The torch sputters.' },
        ],
      },
    ]);
  });

  it('turnkit show prints each kept turn, the player apart from the other rows', async () => {
    const [fixture] = await capture({ turn: 3 });
    await writeFile(join(t.dir, 'crypt.json'), serializeDocument(fixture!));
    const shown = await runInProcess(['show', 'crypt.json'], { cwd: t.dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(
      [
        'kept turns (the player, then the other rows of the turn):',
        '  turn 1:',
        '    Player: I open the door.',
        '    Dice: d20: 14',
        '    GM: The door creaks open.',
        '  turn 2:',
        '    Player: I step inside.',
        '    GM: Darkness swallows you.',
        '    SYSTEM: Ada joined the room.',
        '',
      ].join('\n'),
    );
    expect(shown.stdout).toContain('2 turns kept');
  });

  it('turnkit show prints every line of a row, indented, and shows several files each under its name', async () => {
    const [fixture] = await capture({ turn: 3 });
    const table = fixture!.tables.NarrativeEntry!;
    const gm = table.rows.find((row) => row.content === 'The door creaks open.')!;
    const edited = {
      ...fixture!,
      tables: {
        ...fixture!.tables,
        NarrativeEntry: {
          ...table,
          rows: table.rows.map((row) =>
            row === gm ? { ...row, content: 'NPC moves:\n- the guard turns\n- the rat flees' } : row,
          ),
        },
      },
    };
    await writeFile(join(t.dir, 'moves.json'), serializeDocument(edited));
    await writeFile(join(t.dir, 'crypt.json'), serializeDocument(fixture!));
    const shown = await runInProcess(['show', 'moves.json', 'crypt.json'], { cwd: t.dir });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      ['    GM: NPC moves:', '      - the guard turns', '      - the rat flees'].join('\n'),
    );
    const names = shown.stdout.split('\n').filter((line) => line.startsWith('== '));
    expect(names).toEqual(['== moves.json', '== crypt.json']);
    const json = JSON.parse(
      (await runInProcess(['show', 'moves.json', 'crypt.json', '--json'], { cwd: t.dir })).stdout,
    );
    expect(json.map((summary: { name: string }) => summary.name)).toEqual([fixture!.name, fixture!.name]);
  });

  it('{{recent_turns:K}} shows the last K game turns with speakers from the role', async () => {
    const [fixture] = await capture({ turn: 4 });
    expect(renderCaseFile('{{recent_turns:2}}', fixture!, 'case.md')).toBe(
      [
        '**Turn 2.** Player: I step inside.',
        'GM: Darkness swallows you.',
        'SYSTEM: Ada joined the room.',
        '**Turn 3.** Player: I light a torch.',
        'Dice: d20: 3',
        'GM: The torch sputters.',
      ].join('\n\n'),
    );
  });

  it('the single-turn rule takes all rows of a game turn as that turn', async () => {
    const [base] = await capture({ turn: 4 });
    expect(turnsInOrder(base!).map((entry) => entry.turn)).toEqual([1, 2, 3]);
    expect(Object.fromEntries([...rowsTiedToTurn(base!, 3)].map(([table, keys]) => [table, [...keys].sort()]))).toEqual(
      { NarrativeEntry: ['cmr09', 'cms08', 'cmt07'], Reaction: ['cr2', 'cr3'] },
    );
    expect(turnOfRow(base!, 'cmp11')).toBe(4);
    const change = (row: string, column: string, value: unknown) => {
      const old = base!.tables.NarrativeEntry!.rows.find((entry) => entry.id === row)!;
      return { table: 'NarrativeEntry', row, column, oldValue: old[column], value };
    };
    // The narration and the dice roll of turn 3 are both turn 3.
    expect(
      checkSingleTurn(
        base!,
        [change('cmr09', 'content', 'The torch blazes.'), change('cms08', 'content', 'd20: 19')],
        3,
      ),
    ).toEqual([]);
    expect(checkSingleTurn(base!, [change('cmv05', 'content', 'Light.')], 3)).toEqual([
      "NarrativeEntry[id=cmv05].content: is turn 2's row, not a row of turn 3",
    ]);
    expect(checkSingleTurn(base!, [change('cmr09', 'turn', 2)], 3)).toEqual([
      'NarrativeEntry[id=cmr09].turn: is the turn column (changing it would move the row to another turn)',
    ]);
    expect(turnProblem(base!, 4)).toBe(
      "turn 4 is at or after the fixture's input turn 4; construct from an upstream turn (1..3)",
    );
  });
});

describe.each(BACKENDS)('a chat game (a turn starts at each user message) on %s', (backend) => {
  let t: TestDb;
  const capture = async (turns: CaptureRequest['turns'], extra: Partial<CaptureRequest> = {}): Promise<Fixture[]> =>
    (await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign: '1', turns, now: new Date(0), ...extra }))
      .fixtures;

  beforeAll(async () => {
    t = await createTestDb(backend, CHAT_CONFIG);
    await t.db.pool.query(CHAT_SCHEMA);
    await t.db.pool.query(CHAT_DATA);
  });
  afterAll(async () => t?.cleanup());

  it("keeps the prologue, turn 1 and turn 2's user message", async () => {
    const [fixture] = await capture({ turn: 2 }, { ahead: 2 });
    // Hand-counted: prologue 8; turn 1 = 3, 6; turn 2 = 1 (user), then 7 and 2 (left out).
    expect(ids(fixture!, 'messages')).toEqual([1, 3, 6, 8]);
    expect(fixture!.input).toEqual({ turn: 2, values: { content: 'Who is there?' } });
    expect(fixture!.ahead).toEqual([{ turn: 3, values: { content: 'I flee.' } }]);
    expect(fixture!.source.latestTurn).toBe(3);
    expect(fixture!.source.turns).toEqual({
      table: 'messages',
      order: 'created_at',
      role: { column: 'role', input: ['user'], labels: { assistant: 'GM' } },
    });
    expect(summarizeFixture(fixture!).turns).toEqual([
      { turn: 0, input: [], others: [{ speaker: 'GM', text: 'Welcome to the crypt.' }] },
      { turn: 1, input: ['Hello?'], others: [{ speaker: 'GM', text: 'A voice answers.' }] },
    ]);
    expect(renderCaseFile('{{recent_turns:1}}', fixture!, 'case.md')).toBe(
      '**Turn 1.** Player: Hello?\n\nGM: A voice answers.',
    );
  });

  it('--latest is the last user message; --turn 1 keeps only the prologue and it', async () => {
    const [latest] = await capture({ latest: true });
    expect(latest!.input).toEqual({ turn: 3, values: { content: 'I flee.' } });
    expect(ids(latest!, 'messages')).toEqual([1, 2, 3, 5, 6, 7, 8]);
    const [first] = await capture({ turn: 1 });
    expect(ids(first!, 'messages')).toEqual([3, 8]);
    // Both messages of turn 2's answer are turn 2.
    expect([...(rowsTiedToTurn(latest!, 2).get('messages') ?? [])].sort()).toEqual(['1', '2', '7']);
    await expect(capture({ turn: 4 })).rejects.toThrow('turn 4 is not a turn of the campaign (it has turns 1..3)');
  });
});
