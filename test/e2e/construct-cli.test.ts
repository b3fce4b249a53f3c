import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli-in-process.js';
import { SAMPLE_TEXT, rowById, sha256Of } from '../helpers/construct-fixtures.js';
import { parseFixtureText } from '../../src/fixture/read-fixture.js';
import type { Fixture } from '../../src/fixture/format.js';

const FIXED = 'You ride the lift up from engineering to the mess hall on deck 2. The coffee is bitter.';
const WHY = 'Turn 19 put the mess hall on deck 3; does the wrong route at turn 23 come from it?';

// Commands that read files only (construct, show, materialize, verify, rebase) need no database.
describe('constructed fixtures through the CLI', () => {
  let project: string;
  const cli = (...args: string[]) => runInProcess(args, { cwd: project });
  const sha = (text: string): string => sha256Of(text);
  const base = parseFixtureText(SAMPLE_TEXT, 'sample');
  const original19 = rowById(base, 'turns', '19').narration as string;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-construct-e2e-'));
    await mkdir(join(project, 'lab'));
    await writeFile(join(project, 'lab', 'base.json'), SAMPLE_TEXT);
    await writeFile(join(project, 'patch.json'), JSON.stringify({ turns: [{ id: '19', narration: FIXED }] }));
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('constructs, shows, materializes, verifies; refuses a drifted base naming both hashes; rebases', async () => {
    const made = await cli(
      'construct',
      'lab/base.json',
      '--turn',
      '19',
      '--patch',
      'patch.json',
      '--name',
      'deck-fixed',
      '--why',
      WHY,
      '--out',
      'lab',
    );
    expect(made.stderr).toBe('');
    expect(made).toMatchObject({
      code: 0,
      stdout: 'wrote lab/deck-fixed.json: turn 19, 1 change(s)\n  turns[id=19].narration\n',
    });
    const document = JSON.parse(await readFile(join(project, 'lab', 'deck-fixed.json'), 'utf8'));
    expect(document).toMatchObject({
      format: 'turnkit.constructed/1',
      name: 'deck-fixed',
      why: WHY,
      turn: 19,
      base: { path: 'base.json', sha256: sha(SAMPLE_TEXT) },
    });

    const shown = await cli('show', 'lab/deck-fixed.json');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      `constructed from lab/base.json, turn 19: ${WHY}\n  changed turns[id=19].narration\n`,
    );
    expect(shown.stdout.split('\n')[0]).toBe('deck-fixed: campaigns id=1, turn 23 of 40');
    const summary = JSON.parse((await cli('show', 'lab/deck-fixed.json', '--json')).stdout);
    expect(summary.constructed).toEqual({
      base: 'lab/base.json',
      turn: 19,
      why: WHY,
      changes: ['turns[id=19].narration'],
    });

    const materialized = await cli('materialize', 'lab/deck-fixed.json');
    expect(materialized.code, materialized.stderr).toBe(0);
    const fixture: Fixture = parseFixtureText(materialized.stdout, 'stdout');
    expect(fixture.name).toBe('deck-fixed');
    expect(rowById(fixture, 'turns', '19').narration).toBe(FIXED);
    expect({ ...fixture, name: base.name }).toEqual({
      ...base,
      tables: {
        ...base.tables,
        turns: {
          ...base.tables.turns!,
          rows: base.tables.turns!.rows.map((row) => (row.id === '19' ? { ...row, narration: FIXED } : row)),
        },
      },
    });

    const verified = await cli('verify', 'lab');
    expect(verified).toMatchObject({
      code: 0,
      stdout: 'ok lab/base.json\nok lab/deck-fixed.json\n2 file(s) verified\n',
    });

    // The base is recaptured: its bytes change (capturedAt), its turn 19 does not.
    const recaptured = SAMPLE_TEXT.replace(/"capturedAt": "[^"]+"/, '"capturedAt": "2027-01-01T00:00:00.000Z"');
    expect(recaptured).not.toBe(SAMPLE_TEXT);
    await writeFile(join(project, 'lab', 'base.json'), recaptured);
    const constructedBytes = await readFile(join(project, 'lab', 'deck-fixed.json'), 'utf8');
    const drift = `lab/deck-fixed.json: base lab/base.json changed since this was constructed (recorded sha256 ${sha(SAMPLE_TEXT)}, now ${sha(recaptured)}); run: turnkit rebase lab/deck-fixed.json\n`;
    expect(await cli('materialize', 'lab/deck-fixed.json')).toEqual({ code: 1, stdout: '', stderr: drift });
    expect(await cli('show', 'lab/deck-fixed.json')).toMatchObject({ code: 1, stderr: drift });
    const verifyDrift = await cli('verify', 'lab');
    expect(verifyDrift).toMatchObject({ code: 1, stdout: 'ok lab/base.json\n', stderr: drift });
    expect(await readFile(join(project, 'lab', 'deck-fixed.json'), 'utf8')).toBe(constructedBytes);

    const rebased = await cli('rebase', 'lab/deck-fixed.json');
    expect(rebased).toMatchObject({
      code: 0,
      stdout: `lab/deck-fixed.json: rebased onto lab/base.json (sha256 ${sha(SAMPLE_TEXT).slice(0, 12)} -> ${sha(recaptured).slice(0, 12)}), 1 change(s) re-applied\n`,
    });
    expect(JSON.parse(await readFile(join(project, 'lab', 'deck-fixed.json'), 'utf8'))).toEqual({
      ...document,
      base: { path: 'base.json', sha256: sha(recaptured) },
    });
    const again = await cli('materialize', 'lab/deck-fixed.json');
    expect(again.code, again.stderr).toBe(0);
    const rematerialized = parseFixtureText(again.stdout, 'stdout');
    expect(rematerialized.source.capturedAt).toBe('2027-01-01T00:00:00.000Z');
    expect(rowById(rematerialized, 'turns', '19').narration).toBe(FIXED);
    expect(await cli('rebase', 'lab/deck-fixed.json')).toMatchObject({
      code: 0,
      stdout: `lab/deck-fixed.json: base lab/base.json is unchanged (sha256 ${sha(recaptured)}); nothing to do\n`,
    });
  });

  it('refuses to rebase onto a base whose turn 19 changed, listing the conflict and writing nothing', async () => {
    await mkdir(join(project, 'conflict'));
    await writeFile(join(project, 'conflict', 'base.json'), SAMPLE_TEXT);
    const made = await cli(
      'construct',
      'conflict/base.json',
      '--turn',
      '19',
      '--patch',
      'patch.json',
      '--name',
      'fixed',
      '--why',
      WHY,
      '--out',
      'conflict',
    );
    expect(made.code, made.stderr).toBe(0);
    const before = await readFile(join(project, 'conflict', 'fixed.json'), 'utf8');
    const narration = JSON.stringify(original19);
    await writeFile(
      join(project, 'conflict', 'base.json'),
      SAMPLE_TEXT.replace(narration, JSON.stringify('Recaptured: the mess hall is two decks up.')),
    );
    const refused = await cli('rebase', 'conflict/fixed.json');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'conflict/fixed.json: cannot rebase onto conflict/base.json: 1 conflicting path(s); nothing written (--keep PATH=base or PATH=change resolves one; --interactive chooses on screen)\n' +
        `conflict/fixed.json: turns[id=19].narration: base has "Recaptured: the mess hall is two decks up.", the change expected ${narration} (new value ${JSON.stringify(FIXED)})\n`,
    );
    expect(await readFile(join(project, 'conflict', 'fixed.json'), 'utf8')).toBe(before);
  });

  it("resolves rebase conflicts per path with --keep: the new base's value (the change dropped) or the change", async () => {
    await mkdir(join(project, 'keep'));
    await writeFile(join(project, 'keep', 'base.json'), SAMPLE_TEXT);
    const input19 = rowById(base, 'turns', '19').player_input as string;
    await writeFile(
      join(project, 'patch-two.json'),
      JSON.stringify({ turns: [{ id: '19', narration: FIXED, player_input: 'I take the lift.' }] }),
    );
    const made = await cli(
      'construct',
      'keep/base.json',
      '--turn',
      '19',
      '--patch',
      'patch-two.json',
      '--name',
      'two',
      '--why',
      WHY,
      '--out',
      'keep',
    );
    expect(made.code, made.stderr).toBe(0);
    // The recapture moved both values the change expected.
    const recapturedNarration = 'Recaptured: the mess hall is two decks up.';
    await writeFile(
      join(project, 'keep', 'base.json'),
      SAMPLE_TEXT.replace(JSON.stringify(original19), JSON.stringify(recapturedNarration)).replace(
        JSON.stringify(input19),
        JSON.stringify('Recaptured input.'),
      ),
    );
    const before = await readFile(join(project, 'keep', 'two.json'), 'utf8');

    // One path chosen, the other still in conflict: refused, nothing written.
    const half = await cli('rebase', 'keep/two.json', '--keep', 'turns[id=19].narration=change');
    expect(half.code).toBe(1);
    expect(half.stderr.split('\n')[0]).toBe(
      'keep/two.json: cannot rebase onto keep/base.json: 1 conflicting path(s); nothing written (--keep PATH=base or PATH=change resolves one; --interactive chooses on screen)',
    );
    expect(half.stderr).toContain('turns[id=19].player_input: base has "Recaptured input."');
    expect(await readFile(join(project, 'keep', 'two.json'), 'utf8')).toBe(before);
    // A path that is not in conflict is wrong usage; keeping the base everywhere leaves no change and is refused.
    const wrong = await cli('rebase', 'keep/two.json', '--keep', 'turns[id=18].narration=base');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.split('\n')[0]).toBe(
      '--keep turns[id=18].narration=base: not a conflicting path (conflicting: turns[id=19].player_input, turns[id=19].narration)',
    );
    expect((await cli('rebase', 'keep/two.json', '--keep', 'base')).stderr).toContain(
      'keeping the base everywhere leaves no change',
    );

    const rebased = await cli(
      'rebase',
      'keep/two.json',
      '--keep',
      'turns[id=19].player_input=base',
      '--keep',
      'change',
    );
    expect(rebased.code, rebased.stderr).toBe(0);
    expect(rebased.stdout.split('\n')).toEqual([
      expect.stringMatching(
        /^keep\/two\.json: rebased onto keep\/base\.json \(sha256 \w{12} -> \w{12}\), 1 change\(s\) re-applied$/,
      ),
      "  turns[id=19].player_input: kept the new base's value (change dropped)",
      '  turns[id=19].narration: kept the change',
      '',
    ]);
    const materialized = await cli('materialize', 'keep/two.json');
    expect(materialized.code, materialized.stderr).toBe(0);
    const row = rowById(JSON.parse(materialized.stdout) as Fixture, 'turns', '19');
    expect(row.narration).toBe(FIXED);
    expect(row.player_input).toBe('Recaptured input.');
    const leaf = JSON.parse(await readFile(join(project, 'keep', 'two.json'), 'utf8')).changeset[0].changes[0]
      .changes[0].changes[0].changes;
    expect(leaf).toEqual([{ type: 'UPDATE', key: 'narration', value: FIXED, oldValue: recapturedNarration }]);
  });

  it("constructs into the config's constructed folder from an edited copy with --from, and --json prints the document", async () => {
    await mkdir(join(project, 'fixtures'), { recursive: true });
    await writeFile(join(project, 'fixtures', 'meridian.json'), SAMPLE_TEXT);
    await writeFile(
      join(project, 'edited.json'),
      SAMPLE_TEXT.replace(JSON.stringify(original19), JSON.stringify(FIXED)),
    );
    const made = await cli(
      'construct',
      'fixtures/meridian.json',
      '--turn',
      '19',
      '--from',
      'edited.json',
      '--name',
      'from-edit',
      '--why',
      WHY,
      '--json',
    );
    expect(made.code, made.stderr).toBe(0);
    const printed = JSON.parse(made.stdout);
    expect(printed).toMatchObject({
      file: 'constructed/from-edit.json',
      name: 'from-edit',
      turn: 19,
      base: { path: '../fixtures/meridian.json', sha256: sha(SAMPLE_TEXT) },
    });
    const { file: _file, ...document } = printed;
    expect(JSON.parse(await readFile(join(project, 'constructed', 'from-edit.json'), 'utf8'))).toEqual(document);
    expect((await readdir(join(project, 'constructed'))).sort()).toEqual([
      'from-edit.json',
      'turnkit.constructed.schema.json',
    ]);

    const again = await cli(
      'construct',
      'fixtures/meridian.json',
      '--turn',
      '19',
      '--from',
      'edited.json',
      '--name',
      'from-edit',
      '--why',
      'other',
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('constructed/from-edit.json: already exists (use --force to overwrite)\n');
  });

  it('is wrong usage (exit 2) to give neither --patch nor --from, or both, and nothing is written', async () => {
    for (const extra of [[], ['--patch', 'patch.json', '--from', 'edited.json']]) {
      const result = await cli(
        'construct',
        'lab/base.json',
        '--turn',
        '19',
        '--name',
        'usage',
        '--why',
        WHY,
        '--out',
        'usage',
        ...extra,
      );
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.split('\n')[0]).toContain('give exactly one of --patch FILE or --from EDITED.json');
      expect(existsSync(join(project, 'usage'))).toBe(false);
    }
  });
});
