import { asCommand } from '../helpers/as-command.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changesetOf, type ColumnChange } from '../../src/fixture/constructed/column-change.js';
import { construct } from '../../src/fixture/constructed/construct-fixture.js';
import { diffFixtures } from '../../src/fixture/constructed/diff-fixtures.js';
import { EditSession } from '../../src/fixture/constructed/edit-session.js';
import type { ConstructedFixture } from '../../src/fixture/constructed/constructed-format.js';
import { loadFixture, type LoadedFixture } from '../../src/fixture/load-fixture.js';
import { rebase, RebaseConflictError } from '../../src/fixture/constructed/rebase.js';
import { buildConstructed, saveConstructed } from '../../src/fixture/constructed/save-constructed.js';
import { TurnkitError } from '../../src/errors.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { parseFixtureText } from '../../src/fixture/read-fixture.js';
import { SAMPLE_TEXT, loadedFromText, rowById, sha256Of, shown } from '../helpers/construct-fixtures.js';

// The operations' files context: relative paths of their input are this process's folder's, as before.
const HERE = { cwd: process.cwd(), paths: { baseDir: process.cwd() } };

const base: Fixture = parseFixtureText(SAMPLE_TEXT, 'meridian-turn-23.json');
const SHA = sha256Of(SAMPLE_TEXT);
const NARRATION_19 = rowById(base, 'turns', '19').narration as string;
const FIXED_19 = 'You ride the lift up from engineering to the mess hall on deck 2. The coffee is bitter.';
const FIXED_18 = 'Reyes wipes his hands. "Pump three. It will hold one more jump, no more."';

/** The error a call throws, which must be a TurnkitError. */
async function failure(action: () => unknown): Promise<TurnkitError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof TurnkitError) return error;
    throw error;
  }
  throw new Error('expected a TurnkitError, but the call succeeded');
}

/** A copy of the sample fixture with some edits made. */
function editedCopy(edit: (fixture: Fixture) => void): Fixture {
  const copy = structuredClone(base);
  edit(copy);
  return copy;
}

/** A constructed document written by hand (for changes that construct itself would refuse to record). */
function constructedDoc(options: {
  name: string;
  basePath: string;
  sha256: string;
  turn: number;
  changes: ColumnChange[];
  baseFixture?: Fixture;
}): ConstructedFixture {
  return {
    format: 'turnkit.constructed/1',
    name: options.name,
    why: 'a test',
    base: { path: options.basePath, sha256: options.sha256 },
    turn: options.turn,
    changeset: changesetOf(options.changes, options.baseFixture ?? base),
  };
}

const narration19: ColumnChange = {
  table: 'turns',
  row: '19',
  column: 'narration',
  oldValue: NARRATION_19,
  value: FIXED_19,
};

let dir: string;
let loaded: LoadedFixture;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'turnkit-construct-rules-'));
  await writeFile(join(dir, 'base.json'), SAMPLE_TEXT);
  loaded = loadedFromText(SAMPLE_TEXT, join(dir, 'base.json'), 'base.json');
});
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the single-turn rule refuses, listing every offending path', () => {
  const refuse = (edited: Fixture, turn = 19): Promise<TurnkitError> =>
    failure(() => buildConstructed({ base: loaded, edited, turn, name: 'x', why: 'w', dir }));

  it("a change in another turn's row", async () => {
    const error = await refuse(editedCopy((f) => void (rowById(f, 'turns', '18').narration = 'x')));
    expect(error.problems).toEqual(["base.json: turns[id=18].narration: is turn 18's row, not a row of turn 19"]);
    expect(error.code).toBe('BAD_INPUT');
  });

  it('a change of a row tied to another turn names that turn', async () => {
    const turn18Fact = editedCopy(
      (f) => void (rowById(f, 'world_facts', '7').fact = 'Learned on turn 18: the cargo is medical.'),
    );
    expect((await refuse(turn18Fact, 19)).problems).toEqual([
      'base.json: world_facts[id=7].fact: is tied to turn 18, not a row of turn 19',
    ]);
    const built = buildConstructed({ base: loaded, edited: turn18Fact, turn: 18, name: 'fact-18', why: 'w', dir });
    expect(built.paths).toEqual(['world_facts[id=7].fact']);
    expect(built.document.turn).toBe(18);
  });

  it('a shared row', async () => {
    const error = await refuse(editedCopy((f) => void (rowById(f, 'users', '1').handle = 'x')));
    expect(error.problems).toEqual([
      'base.json: users[id=1].handle: is a shared row (other campaigns read it), not a row of turn 19',
    ]);
  });

  it("standing rows (the campaign row, a fact of no turn) may be corrected beside the turn's rows", async () => {
    const edited = editedCopy((f) => {
      rowById(f, 'campaigns', '1').title = 'Corrected title';
      rowById(f, 'world_facts', '1').fact = 'Corrected: the standing fact as of turn 19.';
      rowById(f, 'turns', '19').narration = FIXED_19;
    });
    const built = buildConstructed({ base: loaded, edited, turn: 19, name: 'standing', why: 'w', dir });
    expect(built.paths).toEqual(['campaigns[id=1].title', 'turns[id=19].narration', 'world_facts[id=1].fact']);
    // A standing row alone is a correction too, recorded under the turn named.
    const alone = editedCopy((f) => void (rowById(f, 'world_facts', '1').fact = 'Only this.'));
    expect(buildConstructed({ base: loaded, edited: alone, turn: 19, name: 'alone', why: 'w', dir }).paths).toEqual([
      'world_facts[id=1].fact',
    ]);
    // Keys of a standing row stay locked.
    const key = await refuse(editedCopy((f) => void (rowById(f, 'world_facts', '1').campaign_id = '2')));
    expect(key.problems[0]).toMatch(/world_facts\[id=1\]\.campaign_id: is a foreign key column/);
  });

  it('a primary key change is named as one, not as a removed and an added row', async () => {
    const error = await refuse(editedCopy((f) => void (rowById(f, 'turns', '19').id = '999')));
    expect(error.problems).toEqual([
      'base.json: turns[id=19]: its primary key changes (to turns[id=999]); keys cannot change',
    ]);
    expect(error.message).toBe(error.problems[0]);
  });

  it('a change of the turn order column, which would move other turns', async () => {
    const error = await refuse(editedCopy((f) => void (rowById(f, 'turns', '19').turn_number = 99)));
    expect(error.problems).toEqual([
      'base.json: turns[id=19].turn_number: is the turn order column (changing it would move other turns)',
    ]);
  });

  it('a row keyed "__proto__" is diffed like any other', () => {
    const withOddKey = structuredClone(base);
    rowById(withOddKey, 'world_facts', '7').id = '__proto__';
    const edited = structuredClone(withOddKey);
    rowById(edited, 'world_facts', '__proto__').fact = 'changed';
    rowById(edited, 'turns', '18').narration = 'also changed';
    expect(
      diffFixtures(withOddKey, edited)
        .changes.map((change) => `${change.table}[${change.row}].${change.column}`)
        .sort(),
    ).toEqual(['turns[18].narration', 'world_facts[__proto__].fact']);
  });

  it('a foreign key change, on the turn row and on a tied row', async () => {
    const turnRow = await refuse(editedCopy((f) => void (rowById(f, 'turns', '19').location_id = '1')));
    expect(turnRow.problems).toEqual([
      'base.json: turns[id=19].location_id: is a foreign key column (keys cannot change)',
    ]);
    const factRow = await refuse(
      editedCopy((f) => void (rowById(f, 'world_facts', '7').introduced_at_turn_id = '17')),
      18,
    );
    expect(factRow.problems).toEqual([
      'base.json: world_facts[id=7].introduced_at_turn_id: is a foreign key column (keys cannot change)',
    ]);
  });

  it('an empty change', async () => {
    const error = await refuse(structuredClone(base));
    expect(error.problems).toEqual(['base.json: no change: the edited fixture equals the base']);
  });

  it('a turn at or after the input turn 23, and a turn that is not kept', async () => {
    const edited = editedCopy((f) => void (rowById(f, 'turns', '19').narration = FIXED_19));
    expect((await refuse(edited, 23)).problems).toEqual([
      "base.json: turn 23 is at or after the fixture's input turn 23; construct from an upstream turn (1..22)",
    ]);
    expect((await refuse(edited, 30)).message).toBe(
      "base.json: turn 30 is at or after the fixture's input turn 23; construct from an upstream turn (1..22)",
    );
    expect((await refuse(edited, 0)).message).toBe(
      'base.json: turn 0 is not a kept turn of meridian-turn-23 (it keeps turns 1..22)',
    );
  });

  it('a renamed fixture ($.name) and a changed source', async () => {
    const renamed = await refuse(
      editedCopy((f) => {
        f.name = 'renamed';
        rowById(f, 'turns', '19').narration = FIXED_19;
      }),
    );
    expect(renamed.problems).toEqual(['base.json: $.name: is not a row of a turn']);
    const recaptured = await refuse(editedCopy((f) => void (f.source.capturedAt = '2027-01-01T00:00:00.000Z')));
    expect(recaptured.problems).toEqual(['base.json: $.source: is not a row of a turn']);
  });

  it('an added row and a removed row', async () => {
    const added = await refuse(
      editedCopy((f) => void f.tables.turns!.rows.push({ ...rowById(f, 'turns', '19'), id: '500' })),
    );
    expect(added.problems).toEqual([
      'base.json: turns[id=500]: adds a row; a constructed fixture changes values of existing rows',
    ]);
    const removed = await refuse(
      editedCopy((f) => void (f.tables.world_facts!.rows = f.tables.world_facts!.rows.filter((row) => row.id !== '7'))),
      18,
    );
    expect(removed.problems).toEqual([
      'base.json: world_facts[id=7]: removes a row; a constructed fixture changes values of existing rows',
    ]);
  });

  it('an added and a removed column', async () => {
    const added = await refuse(editedCopy((f) => void (rowById(f, 'turns', '19').mood = 'calm')));
    expect(added.problems).toEqual(['base.json: turns[id=19].mood: adds a column "mood" that turns does not have']);
    const removed = await refuse(editedCopy((f) => void delete rowById(f, 'turns', '19').narration));
    expect(removed.problems).toEqual(['base.json: turns[id=19].narration: removes a column']);
  });

  it('lists every offending path of a change spread over several places, and allows the turn-19 part alone', async () => {
    const error = await refuse(
      editedCopy((f) => {
        rowById(f, 'turns', '19').narration = FIXED_19;
        rowById(f, 'turns', '18').narration = 'x';
        rowById(f, 'users', '1').handle = 'x';
      }),
    );
    expect([...error.problems].sort()).toEqual(
      [
        "base.json: turns[id=18].narration: is turn 18's row, not a row of turn 19",
        'base.json: users[id=1].handle: is a shared row (other campaigns read it), not a row of turn 19',
      ].sort(),
    );
    const alone = buildConstructed({
      base: loaded,
      edited: editedCopy((f) => void (rowById(f, 'turns', '19').narration = FIXED_19)),
      turn: 19,
      name: 'x',
      why: 'w',
      dir,
    });
    expect(alone.changes).toEqual([narration19]);
  });

  it('writes nothing when construct refuses', async () => {
    await writeFile(join(dir, 'patch.json'), JSON.stringify({ turns: [{ id: '18', narration: 'x' }] }));
    const error = await failure(() =>
      asCommand(construct, {
        fixture: 'base.json',
        turn: 19,
        patch: 'patch.json',
        name: 'refused',
        why: 'w',
        out: 'out',
        cwd: dir,
      }),
    );
    // The refusal names the patch, the file the author fixes, from the folder the operation was given (cwd).
    expect(error.message).toBe(`patch.json: turns[id=18].narration: is turn 18's row, not a row of turn 19`);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect((await readdir(dir)).sort()).toEqual(['base.json', 'patch.json']);
  });

  it('refuses a constructed file whose recorded changes break the rule when it is materialized', async () => {
    const cases: [string, number, ColumnChange, string][] = [
      [
        'pk',
        19,
        { table: 'turns', row: '19', column: 'id', oldValue: '19', value: '99' },
        'turns[id=19].id: is part of the primary key (keys cannot change)',
      ],
      [
        'fk',
        19,
        { table: 'turns', row: '19', column: 'location_id', oldValue: '8', value: '1' },
        'turns[id=19].location_id: is a foreign key column (keys cannot change)',
      ],
      ['other-turn', 18, narration19, "turns[id=19].narration: is turn 19's row, not a row of turn 18"],
      [
        'shared',
        19,
        { table: 'users', row: '1', column: 'handle', oldValue: rowById(base, 'users', '1').handle, value: 'x' },
        'users[id=1].handle: is a shared row (other campaigns read it), not a row of turn 19',
      ],
      [
        'at-input',
        23,
        narration19,
        "turn 23 is at or after the fixture's input turn 23; construct from an upstream turn (1..22)",
      ],
      ['empty', 19, narration19, 'no change: the edited fixture equals the base'],
      ['gone-row', 19, { ...narration19, row: '999' }, 'turns[id=999].narration: no such row in meridian-turn-23'],
      ['gone-column', 19, { ...narration19, column: 'mood' }, 'turns[id=19].mood: no such column in turns'],
      [
        'old-value',
        19,
        { ...narration19, oldValue: 'not what the base holds' },
        `turns[id=19].narration: base has ${JSON.stringify(NARRATION_19)}, the change expected "not what the base holds" (new value ${JSON.stringify(FIXED_19)})`,
      ],
    ];
    for (const [name, turn, change, problem] of cases) {
      const document = constructedDoc({
        name,
        basePath: 'base.json',
        sha256: SHA,
        turn,
        changes: name === 'empty' ? [] : [change],
      });
      const file = join(dir, `${name}.json`);
      await writeFile(file, serializeDocument(document));
      const error = await failure(() => loadFixture(file));
      expect(error.message, name).toBe(`${shown(file)}: ${problem}`);
    }
  });
});

describe('rebase', () => {
  let fixedPath: string;

  beforeEach(async () => {
    const saved = await saveConstructed({
      base: loaded,
      edited: editedCopy((f) => void (rowById(f, 'turns', '19').narration = FIXED_19)),
      turn: 19,
      name: 'fixed',
      why: 'deck 2, not deck 3',
      dir,
    });
    fixedPath = saved.file;
  });

  const recapture = async (edit: (fixture: Fixture) => void): Promise<string> => {
    const text = serializeDocument(editedCopy(edit));
    await writeFile(join(dir, 'base.json'), text);
    return sha256Of(text);
  };

  it('leaves the file alone while the base is unchanged', async () => {
    const before = await readFile(fixedPath, 'utf8');
    const result = await rebase(HERE, { constructed: fixedPath });
    expect(result).toMatchObject({ rewritten: false, fromSha256: SHA, toSha256: SHA, changes: 1 });
    expect(await readFile(fixedPath, 'utf8')).toBe(before);
  });

  it('rewrites the file with the new hash when the base was recaptured with an unrelated change', async () => {
    const before = JSON.parse(await readFile(fixedPath, 'utf8')) as ConstructedFixture;
    const newSha = await recapture((f) => void (rowById(f, 'campaigns', '1').title = 'The Longer Dark'));
    const drift = await failure(() => loadFixture(fixedPath));
    expect(drift.message).toBe(
      `${shown(fixedPath)}: base ${shown(join(dir, 'base.json'))} changed since this was constructed (recorded sha256 ${SHA}, now ${newSha}); run: turnkit rebase ${shown(fixedPath)}`,
    );

    const result = await rebase(HERE, { constructed: fixedPath });
    expect(result).toEqual({
      file: shown(fixedPath),
      base: shown(join(dir, 'base.json')),
      fromSha256: SHA,
      toSha256: newSha,
      rewritten: true,
      changes: 1,
    });
    const after = JSON.parse(await readFile(fixedPath, 'utf8')) as ConstructedFixture;
    expect(after).toEqual({ ...before, base: { path: 'base.json', sha256: newSha } });
    const materialized = (await loadFixture(fixedPath)).fixture;
    expect(rowById(materialized, 'campaigns', '1').title).toBe('The Longer Dark');
    expect(rowById(materialized, 'turns', '19').narration).toBe(FIXED_19);
  });

  it("lists each conflict with base, old and new values and writes nothing when turn 19's narration changed", async () => {
    const before = await readFile(fixedPath);
    await recapture((f) => void (rowById(f, 'turns', '19').narration = 'A recaptured narration.'));
    const error = await failure(() => rebase(HERE, { constructed: fixedPath }));
    expect(error).toBeInstanceOf(RebaseConflictError);
    expect((error as RebaseConflictError).conflicts).toEqual([
      { path: 'turns[id=19].narration', base: 'A recaptured narration.', old: NARRATION_19, new: FIXED_19 },
    ]);
    const file = shown(fixedPath);
    expect(error.problems).toEqual([
      `${file}: cannot rebase onto ${shown(join(dir, 'base.json'))}: 1 conflicting path(s); nothing written (--keep PATH=base or PATH=change resolves one; --interactive chooses on screen)`,
      `${file}: turns[id=19].narration: base has "A recaptured narration.", the change expected ${JSON.stringify(NARRATION_19)} (new value ${JSON.stringify(FIXED_19)})`,
    ]);
    expect((await readFile(fixedPath)).equals(before)).toBe(true);
  });

  it('names a row the new base no longer has once, as gone', async () => {
    const before = await readFile(fixedPath);
    await recapture((f) => void (f.tables.turns!.rows = f.tables.turns!.rows.filter((row) => row.id !== '19')));
    const error = await failure(() => rebase(HERE, { constructed: fixedPath }));
    expect(error.problems.slice(1)).toEqual([
      `${shown(fixedPath)}: turns[id=19].narration: no longer exists in the base`,
    ]);
    expect((await readFile(fixedPath)).equals(before)).toBe(true);
  });

  it('moves onto another base with --onto and records its path', async () => {
    const otherText = serializeDocument(editedCopy((f) => void (rowById(f, 'turns', '2').narration = 'elsewhere')));
    await writeFile(join(dir, 'recaptured.json'), otherText);
    const result = await rebase(
      { cwd: dir, paths: { baseDir: dir } },
      { constructed: 'fixed.json', onto: 'recaptured.json' },
    );
    expect(result).toMatchObject({ rewritten: true, fromSha256: SHA, toSha256: sha256Of(otherText) });
    const after = JSON.parse(await readFile(fixedPath, 'utf8')) as ConstructedFixture;
    expect(after.base).toEqual({ path: 'recaptured.json', sha256: sha256Of(otherText) });
    const materialized = (await loadFixture(fixedPath)).fixture;
    expect([rowById(materialized, 'turns', '2').narration, rowById(materialized, 'turns', '19').narration]).toEqual([
      'elsewhere',
      FIXED_19,
    ]);
  });
});

describe('chains of constructed fixtures', () => {
  it('materializes a constructed fixture whose base is constructed, each link against its own base', async () => {
    const first = await saveConstructed({
      base: loaded,
      edited: editedCopy((f) => void (rowById(f, 'turns', '19').narration = FIXED_19)),
      turn: 19,
      name: 'first',
      why: 'w',
      dir,
    });
    const firstLoaded = await loadFixture(first.file);
    const secondEdited = structuredClone(firstLoaded.fixture);
    rowById(secondEdited, 'turns', '18').narration = FIXED_18;
    const second = await saveConstructed({
      base: firstLoaded,
      edited: secondEdited,
      turn: 18,
      name: 'second',
      why: 'w',
      dir,
    });
    expect(second.document.base).toEqual({ path: 'first.json', sha256: sha256Of(await readFile(first.file, 'utf8')) });
    expect(second.paths).toEqual(['turns[id=18].narration']);

    const materialized = await loadFixture(second.file);
    expect(materialized.fixture.name).toBe('second');
    expect(rowById(materialized.fixture, 'turns', '19').narration).toBe(FIXED_19);
    expect(rowById(materialized.fixture, 'turns', '18').narration).toBe(FIXED_18);
    expect(materialized.fixture).toEqual({
      ...editedCopy((f) => {
        rowById(f, 'turns', '19').narration = FIXED_19;
        rowById(f, 'turns', '18').narration = FIXED_18;
      }),
      name: 'second',
    });
    expect(materialized.constructed?.base.constructed?.base.path).toBe(join(dir, 'base.json'));
  });

  it('refuses a chain whose inner link breaks the rule, naming that link', async () => {
    // The inner link claims turn 19 but changes turn 18's row; the outer link is fine on its own.
    const innerDoc = constructedDoc({
      name: 'inner',
      basePath: 'base.json',
      sha256: SHA,
      turn: 19,
      changes: [
        {
          table: 'turns',
          row: '18',
          column: 'narration',
          oldValue: rowById(base, 'turns', '18').narration,
          value: 'x',
        },
      ],
    });
    const innerText = serializeDocument(innerDoc);
    await writeFile(join(dir, 'inner.json'), innerText);
    await writeFile(
      join(dir, 'outer.json'),
      serializeDocument(
        constructedDoc({
          name: 'outer',
          basePath: 'inner.json',
          sha256: sha256Of(innerText),
          turn: 19,
          changes: [narration19],
        }),
      ),
    );
    const error = await failure(() => loadFixture(join(dir, 'outer.json')));
    expect(error.message).toBe(
      // The file loaded, then the link of the chain that breaks the rule.
      `${shown(join(dir, 'outer.json'))}: $.base.path: inner.json (${shown(join(dir, 'inner.json'))}): turns[id=18].narration: is turn 18's row, not a row of turn 19`,
    );
  });

  it('refuses an outer link that changes another turn than it claims', async () => {
    const first = await saveConstructed({
      base: loaded,
      edited: editedCopy((f) => void (rowById(f, 'turns', '19').narration = FIXED_19)),
      turn: 19,
      name: 'first',
      why: 'w',
      dir,
    });
    const firstText = await readFile(first.file, 'utf8');
    const change: ColumnChange = { table: 'turns', row: '19', column: 'narration', oldValue: FIXED_19, value: 'again' };
    await writeFile(
      join(dir, 'outer.json'),
      serializeDocument(
        constructedDoc({
          name: 'outer',
          basePath: 'first.json',
          sha256: sha256Of(firstText),
          turn: 18,
          changes: [change],
        }),
      ),
    );
    const error = await failure(() => loadFixture(join(dir, 'outer.json')));
    expect(error.message).toBe(
      `${shown(join(dir, 'outer.json'))}: turns[id=19].narration: is turn 19's row, not a row of turn 18`,
    );
  });

  it('names both hashes when a base in the chain drifted', async () => {
    const first = await saveConstructed({
      base: loaded,
      edited: editedCopy((f) => void (rowById(f, 'turns', '19').narration = FIXED_19)),
      turn: 19,
      name: 'first',
      why: 'w',
      dir,
    });
    const firstSha = sha256Of(await readFile(first.file, 'utf8'));
    await writeFile(
      join(dir, 'outer.json'),
      serializeDocument(
        constructedDoc({
          name: 'outer',
          basePath: 'first.json',
          sha256: firstSha,
          turn: 18,
          changes: [
            {
              table: 'turns',
              row: '18',
              column: 'narration',
              oldValue: rowById(base, 'turns', '18').narration,
              value: FIXED_18,
            },
          ],
        }),
      ),
    );
    expect(rowById((await loadFixture(join(dir, 'outer.json'))).fixture, 'turns', '18').narration).toBe(FIXED_18);

    const drifted = serializeDocument(editedCopy((f) => void (f.source.capturedAt = '2027-01-01T00:00:00.000Z')));
    await writeFile(join(dir, 'base.json'), drifted);
    const error = await failure(() => loadFixture(join(dir, 'outer.json')));
    expect(error.message).toBe(
      `${shown(join(dir, 'outer.json'))}: $.base.path: first.json (${shown(first.file)}): base ${shown(join(dir, 'base.json'))} changed since this was constructed (recorded sha256 ${SHA}, now ${sha256Of(drifted)}); run: turnkit rebase ${shown(first.file)}`,
    );
  });

  it('refuses a cycle of bases, and a file that is its own base', async () => {
    const zeros = '0'.repeat(64);
    await writeFile(
      join(dir, 'a.json'),
      serializeDocument(
        constructedDoc({ name: 'a', basePath: 'b.json', sha256: zeros, turn: 19, changes: [narration19] }),
      ),
    );
    await writeFile(
      join(dir, 'b.json'),
      serializeDocument(
        constructedDoc({ name: 'b', basePath: './a.json', sha256: zeros, turn: 19, changes: [narration19] }),
      ),
    );
    const cycle = await failure(() => loadFixture(join(dir, 'a.json')));
    expect(cycle.message).toBe(
      `${shown(join(dir, 'a.json'))}: $.base.path: b.json (${shown(join(dir, 'b.json'))}): $.base.path: ./a.json (${shown(join(dir, 'a.json'))}): $.base.path: the chain of bases comes back to ${shown(join(dir, 'a.json'))}`,
    );
    await writeFile(
      join(dir, 'self.json'),
      serializeDocument(
        constructedDoc({ name: 'self', basePath: 'self.json', sha256: zeros, turn: 19, changes: [narration19] }),
      ),
    );
    const self = await failure(() => loadFixture(join(dir, 'self.json')));
    expect(self.message).toBe(
      `${shown(join(dir, 'self.json'))}: $.base.path: self.json (${shown(join(dir, 'self.json'))}): $.base.path: the chain of bases comes back to ${shown(join(dir, 'self.json'))}`,
    );
  });

  it('names both files when the base is missing', async () => {
    await writeFile(
      join(dir, 'orphan.json'),
      serializeDocument(
        constructedDoc({
          name: 'orphan',
          basePath: '../gone/base.json',
          sha256: SHA,
          turn: 19,
          changes: [narration19],
        }),
      ),
    );
    const error = await failure(() => loadFixture(join(dir, 'orphan.json')));
    expect(error.code).toBe('NOT_FOUND');
    // The path from here follows in parentheses when it reads otherwise than the file writes it (it depends on where
    // the tests run: from a clone in the temporary folder, the two are the same and it is named once).
    const fromHere = shown(join(dir, '..', 'gone', 'base.json'));
    const place = fromHere === '../gone/base.json' ? fromHere : `../gone/base.json (${fromHere})`;
    expect(error.message).toBe(`${shown(join(dir, 'orphan.json'))}: $.base.path: ${place}: no such file`);
  });
});

describe('EditSession', () => {
  it('edits one turn, refuses another while it has changes, reverts, and saves through saveConstructed', async () => {
    const session = new EditSession(loaded);
    expect(session.turns()).toHaveLength(22);
    expect(session.turns()[18]).toEqual({
      turn: 19,
      input: 'I go grab a coffee in the mess hall and come back.',
      narration: NARRATION_19,
      changed: false,
    });
    expect(session.rowsOfTurn(18).map((row) => row.label)).toEqual(['turns[id=18]', 'world_facts[id=7]']);
    const fields = session.rowsOfTurn(19)[0]!.fields;
    expect(fields.find((field) => field.column === 'narration')).toMatchObject({
      kind: 'text',
      changed: false,
      value: NARRATION_19,
    });
    expect(fields.find((field) => field.column === 'id')?.locked).toBe('part of the primary key (keys cannot change)');
    expect(fields.find((field) => field.column === 'turn_number')?.locked).toBe(
      'the turn order column (changing it would move other turns)',
    );
    expect(fields.find((field) => field.column === 'location_id')?.locked).toBe(
      'a foreign key column (keys cannot change)',
    );

    session.setValue(19, 'turns', '19', 'narration', FIXED_19);
    expect(session.isDirty()).toBe(true);
    expect(session.editedTurn()).toBe(19);
    expect(session.changes().map(({ path, change }) => ({ path, change }))).toEqual([
      { path: 'turns[id=19].narration', change: narration19 },
    ]);
    expect(session.turns()[18]!.changed).toBe(true);
    expect(session.rowsOfTurn(19)[0]!.fields.find((field) => field.column === 'narration')).toMatchObject({
      changed: true,
      value: FIXED_19,
    });
    expect(base.tables.turns).toEqual(loaded.fixture.tables.turns);
    expect(rowById(loaded.fixture, 'turns', '19').narration).toBe(NARRATION_19);

    expect(() => session.setValue(18, 'turns', '18', 'narration', 'x')).toThrow(
      'turn 19 already has changes: one turn per constructed fixture',
    );
    expect(() => session.setValue(19, 'turns', '19', 'id', '99')).toThrow('id: part of the primary key');
    expect(() => session.setValue(19, 'turns', '19', 'location_id', '1')).toThrow('location_id: a foreign key column');
    expect(() => session.setValue(19, 'campaigns', '1', 'title', 'x')).toThrow(
      'campaigns[id=1].title: not a field of turn 19',
    );

    session.revert(19, 'turns', '19', 'narration');
    expect(session.isDirty()).toBe(false);
    expect(session.changes()).toEqual([]);
    session.setValue(18, 'turns', '18', 'narration', FIXED_18);
    expect(session.changes().map((shownChange) => shownChange.path)).toEqual(['turns[id=18].narration']);
    session.revert(18, 'turns', '18', 'narration');

    session.setValue(19, 'turns', '19', 'narration', FIXED_19);
    expect(session.defaults()).toEqual({ name: 'meridian-turn-23-turn-19', why: '' });
    const saved = await session.save('fixed', 'deck 2, not deck 3', join(dir, 'constructed'));
    const written = JSON.parse(await readFile(join(dir, 'constructed', 'fixed.json'), 'utf8')) as ConstructedFixture;
    expect(written).toEqual({
      $schema: './turnkit.constructed.schema.json',
      format: 'turnkit.constructed/1',
      name: 'fixed',
      why: 'deck 2, not deck 3',
      base: { path: '../base.json', sha256: SHA },
      turn: 19,
      changeset: changesetOf([narration19], base),
    });
    expect(saved.paths).toEqual(['turns[id=19].narration']);
    expect(existsSync(join(dir, 'constructed', 'turnkit.constructed.schema.json'))).toBe(true);
    const materialized = (await loadFixture(saved.file)).fixture;
    expect(materialized).toEqual({
      ...editedCopy((f) => void (rowById(f, 'turns', '19').narration = FIXED_19)),
      name: 'fixed',
    });
    await expect(session.save('fixed', 'again', join(dir, 'constructed'))).rejects.toThrow(
      /fixed\.json: already exists \(use --force to overwrite\)$/,
    );
  });

  it('refuses to save with no change', async () => {
    await expect(new EditSession(loaded).save('nothing', 'w', dir)).rejects.toThrow('no change: edit a field first');
    expect(existsSync(join(dir, 'nothing.json'))).toBe(false);
  });

  it("continues a constructed fixture's diff for its own turn, against the original base", async () => {
    await saveConstructed({
      base: loaded,
      edited: editedCopy((f) => void (rowById(f, 'turns', '19').narration = FIXED_19)),
      turn: 19,
      name: 'fixed',
      why: 'deck 2',
      dir,
    });
    const session = new EditSession(await loadFixture(join(dir, 'fixed.json')));
    expect(session.editedTurn()).toBe(19);
    expect(session.isDirty()).toBe(false);
    expect(session.changes().map((change) => change.path)).toEqual(['turns[id=19].narration']);
    expect(session.defaults()).toEqual({ name: 'fixed', why: 'deck 2' });

    session.setValue(19, 'turns', '19', 'player_input', 'I go grab a coffee on deck 2.');
    expect(session.isDirty()).toBe(true);
    expect(
      session
        .changes()
        .map((change) => change.path)
        .sort(),
    ).toEqual(['turns[id=19].narration', 'turns[id=19].player_input']);
    const saved = await session.save('fixed-more', 'deck 2, both ways', dir);
    expect(saved.document.base).toEqual({ path: 'base.json', sha256: SHA });
    expect(saved.document.turn).toBe(19);
    expect(saved.changes.map((change) => [change.column, change.oldValue, change.value]).sort()).toEqual([
      ['narration', NARRATION_19, FIXED_19],
      ['player_input', rowById(base, 'turns', '19').player_input, 'I go grab a coffee on deck 2.'],
    ]);
    const materialized = (await loadFixture(saved.file)).fixture;
    expect(rowById(materialized, 'turns', '19')).toMatchObject({
      narration: FIXED_19,
      player_input: 'I go grab a coffee on deck 2.',
    });
    expect(materialized.name).toBe('fixed-more');
  });

  it('makes a chain whose base is the constructed file when another turn is edited', async () => {
    await saveConstructed({
      base: loaded,
      edited: editedCopy((f) => void (rowById(f, 'turns', '19').narration = FIXED_19)),
      turn: 19,
      name: 'fixed',
      why: 'deck 2',
      dir,
    });
    const fixedSha = sha256Of(await readFile(join(dir, 'fixed.json'), 'utf8'));
    const session = new EditSession(await loadFixture(join(dir, 'fixed.json')));
    session.setValue(18, 'turns', '18', 'narration', FIXED_18);
    expect(session.editedTurn()).toBe(18);
    expect(session.changes().map((change) => change.path)).toEqual(['turns[id=18].narration']);
    expect(session.defaults()).toEqual({ name: 'fixed-turn-18', why: '' });
    expect(() => session.setValue(19, 'turns', '19', 'narration', 'x')).toThrow('turn 18 already has changes');

    const saved = await session.save('fixed-18', 'the pump', dir);
    expect(saved.document.base).toEqual({ path: 'fixed.json', sha256: fixedSha });
    expect(saved.document.turn).toBe(18);
    expect(saved.paths).toEqual(['turns[id=18].narration']);
    const materialized = await loadFixture(saved.file);
    expect(rowById(materialized.fixture, 'turns', '19').narration).toBe(FIXED_19);
    expect(rowById(materialized.fixture, 'turns', '18').narration).toBe(FIXED_18);
    expect(materialized.constructed?.base.path).toBe(join(dir, 'fixed.json'));
  });
});

describe('saveConstructed', () => {
  const edited = (): Fixture => editedCopy((f) => void (rowById(f, 'turns', '19').narration = FIXED_19));

  it('refuses to overwrite without force, overwrites with it, and refuses to overwrite the base', async () => {
    await saveConstructed({ base: loaded, edited: edited(), turn: 19, name: 'fixed', why: 'first', dir });
    await expect(
      saveConstructed({ base: loaded, edited: edited(), turn: 19, name: 'fixed', why: 'second', dir }),
    ).rejects.toMatchObject({ code: 'EXISTS' });
    expect(JSON.parse(await readFile(join(dir, 'fixed.json'), 'utf8')).why).toBe('first');
    await saveConstructed({ base: loaded, edited: edited(), turn: 19, name: 'fixed', why: 'second', dir, force: true });
    expect(JSON.parse(await readFile(join(dir, 'fixed.json'), 'utf8')).why).toBe('second');
    await expect(
      saveConstructed({ base: loaded, edited: edited(), turn: 19, name: 'base', why: 'w', dir, force: true }),
    ).rejects.toThrow(/base\.json: is a base the new fixture stands on; choose another name$/);
    expect(await readFile(join(dir, 'base.json'), 'utf8')).toBe(SAMPLE_TEXT);
  });

  it('refuses a name that is not a file name and an empty why', async () => {
    await expect(
      saveConstructed({ base: loaded, edited: edited(), turn: 19, name: '../escape', why: 'w', dir }),
    ).rejects.toThrow('name "../escape": use letters, digits, ".", "_" and "-" only');
    await expect(
      saveConstructed({ base: loaded, edited: edited(), turn: 19, name: 'ok', why: '  ', dir }),
    ).rejects.toMatchObject({ code: 'BAD_INPUT', message: 'why is empty: say what this fixture tests' });
    expect((await readdir(dir)).sort()).toEqual(['base.json']);
  });
});

describe('what the review found', () => {
  it('refuses values a column cannot hold, wherever they come from', async () => {
    const error = await failure(() =>
      buildConstructed({
        base: loaded,
        edited: editedCopy((f) => {
          const row = rowById(f, 'turns', '18');
          row.player_input = null;
          row.ship_minute = 'abc';
          row.tokens_used = 5;
          row.narration = 42;
        }),
        turn: 18,
        name: 'x',
        why: 'w',
        dir,
      }),
    );
    expect(error.problems).toEqual([
      'base.json: turns[id=18].player_input: new value null: the column is NOT NULL',
      'base.json: turns[id=18].narration: new value 42: the column is text: expected a string',
      'base.json: turns[id=18].ship_minute: new value "abc": the column is integer: expected a whole number',
      'base.json: turns[id=18].tokens_used: new value 5: the column is bigint: expected a decimal string like "42"',
    ]);
    const session = new EditSession(loaded);
    expect(() => session.setValue(18, 'turns', '18', 'ship_minute', 'abc')).toThrow(
      'ship_minute is integer: expected a whole number',
    );
  });

  it('never overwrites a file the new fixture stands on, even with force', async () => {
    const first = await saveConstructed({
      base: loaded,
      edited: editedCopy((f) => void (rowById(f, 'turns', '19').narration = FIXED_19)),
      turn: 19,
      name: 'first',
      why: 'w',
      dir,
    });
    const firstLoaded = await loadFixture(first.file);
    const next = structuredClone(firstLoaded.fixture);
    rowById(next, 'turns', '18').narration = FIXED_18;
    await expect(
      saveConstructed({ base: firstLoaded, edited: next, turn: 18, name: 'first', why: 'w', dir, force: true }),
    ).rejects.toThrow(/first\.json: is a base the new fixture stands on/);
    expect((await loadFixture(first.file)).fixture.name).toBe('first');
  });

  it('reads table names from outside as own tables only', async () => {
    await writeFile(join(dir, 'patch.json'), JSON.stringify({ constructor: [{ id: '1' }] }));
    const error = await failure(() =>
      asCommand(construct, {
        fixture: 'base.json',
        turn: 19,
        patch: 'patch.json',
        name: 'x',
        why: 'w',
        out: 'out',
        cwd: dir,
      }),
    );
    expect(error.message).toMatch(/patch\.json: \$\.constructor: no table "constructor" in meridian-turn-23$/);
  });

  it('refuses a patch naming one row twice, and a changeset changing one column twice or keyed by another column', async () => {
    await writeFile(
      join(dir, 'patch.json'),
      JSON.stringify({
        turns: [
          { id: '19', narration: 'a' },
          { id: '19', narration: 'b' },
        ],
      }),
    );
    const twice = await failure(() =>
      asCommand(construct, {
        fixture: 'base.json',
        turn: 19,
        patch: 'patch.json',
        name: 'x',
        why: 'w',
        out: 'out',
        cwd: dir,
      }),
    );
    expect(twice.message).toMatch(/patch\.json: \$\.turns\[1\]: names the same row as \$\.turns\[0\]$/);

    const document = constructedDoc({
      name: 'odd',
      basePath: 'base.json',
      sha256: SHA,
      turn: 19,
      changes: [narration19],
    });
    const rows = document.changeset[0]!.changes![0]!.changes![0]! as { embeddedKey?: string; changes?: unknown[] };
    rows.embeddedKey = 'turn_number';
    await writeFile(join(dir, 'odd.json'), serializeDocument(document));
    const keyed = await failure(() => loadFixture(join(dir, 'odd.json')));
    expect(keyed.message).toMatch(
      /odd\.json: turns\[id=19\]\.narration: the changeset keys turns rows by "turn_number", but its primary key is id$/,
    );

    rows.embeddedKey = 'id';
    rows.changes!.push(structuredClone(rows.changes![0]));
    await writeFile(join(dir, 'odd.json'), serializeDocument(document));
    expect((await failure(() => loadFixture(join(dir, 'odd.json')))).message).toMatch(
      /odd\.json: \$\.changeset: turns\[19\]\.narration: changed twice$/,
    );
  });

  it('saves a continued constructed fixture over the file that was opened, without asking for force', async () => {
    const first = await saveConstructed({
      base: loaded,
      edited: editedCopy((f) => void (rowById(f, 'turns', '19').narration = FIXED_19)),
      turn: 19,
      name: 'first',
      why: 'w',
      dir,
    });
    const session = new EditSession(await loadFixture(first.file));
    session.setValue(19, 'turns', '19', 'player_input', 'I take the lift.');
    const saved = await session.save('first', 'w2', dir);
    expect(saved.file).toBe(first.file);
    expect(saved.paths.sort()).toEqual(['turns[id=19].narration', 'turns[id=19].player_input']);
    expect(saved.document.base.path).toBe('base.json');
  });
});
