import { asCommand } from '../helpers/as-command.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { construct } from '../../src/fixture/constructed/construct-fixture.js';
import { runQuestion, type RunProgress } from '../../src/app/run-question.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import type { Manifest } from '../../src/run-dir/manifest.js';
import { itHasProgram, systemProgram } from '../helpers/system-programs.js';

// A SUT in another language than turnkit's: a shell script that reads its scratch campaign with psql through
// DATABASE_URL and plays its turn by writing a turns row.
const SHELL_SUT = `#!/bin/sh
set -e
cat > /dev/null
last=$(psql "$DATABASE_URL" -Atc "SELECT narration FROM turns WHERE campaign_id = $TURNKIT_CAMPAIGN ORDER BY turn_number DESC LIMIT 1")
psql "$DATABASE_URL" -qc "INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($TURNKIT_CAMPAIGN, $TURNKIT_TURN, 'from sh', 'played by sh', now(), 0)"
echo "campaign=$TURNKIT_CAMPAIGN fixture=$TURNKIT_FIXTURE rep=$TURNKIT_REP last=$last"
`;

// Every way a rep can fail, picked by rep number. The timeout (3 s) leaves the others room on a loaded machine.
const FAILING_SUT = `#!/bin/sh
cat > /dev/null
case "$TURNKIT_REP" in
  1) echo "partial output"; echo "it broke" >&2; echo "key=$TURNKIT_TEST_API_KEY" >&2; exit 3 ;;
  2) sleep 60 ;;
  3) echo '{"response": 42}' ;;
  4) exit 0 ;;
  5) head -c 300 /dev/zero | tr '\\\\0' x ;;
esac
`;

const TEMPLATE = '# {{fixture.name}}\n\nTurn {{turn}}: {{input}}\n\n{{recent_turns:2}}\n';

// Its SUTs are shell scripts that read and write their campaign with psql.
const psql = systemProgram('psql');
itHasProgram('psql', psql);

describe.each(psql.found ? BACKENDS : [])('turnkit run on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;
  const LAST_FIXED = 'The readouts are steady now: the reactor has cooled since the jump.';

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 40, turn: 23, otherTurns: 12 }));
    const dir = t.dir;
    await mkdir(join(dir, 'fixtures'), { recursive: true });
    await mkdir(join(dir, 'questions'), { recursive: true });
    await writeFile(join(dir, 'fixtures/base.json'), serializeDocument({ ...fixture, name: 'base' }));
    await writeFile(
      join(dir, 'patch.json'),
      JSON.stringify({
        turns: [{ id: fixture.tables.turns!.rows.find((row) => row.turn_number === 22)!.id, narration: LAST_FIXED }],
      }),
    );
    await asCommand(construct, {
      fixture: 'fixtures/base.json',
      turn: 22,
      patch: 'patch.json',
      name: 'fixed',
      why: 'last narration corrected',
      cwd: dir,
      out: 'constructed',
    });
    await writeFile(join(dir, 'questions/rubric.md'), 'pass when the route is right\n');
    await writeFile(join(dir, 'questions/case.md'), TEMPLATE);
    await writeFile(join(dir, 'sut.sh'), SHELL_SUT);
    await writeFile(join(dir, 'failing.sh'), FAILING_SUT);
    await chmod(join(dir, 'sut.sh'), 0o755);
    await chmod(join(dir, 'failing.sh'), 0o755);
    const question = (id: string, sut: string, reps: number, timeout = 30): string =>
      [
        `id: ${id}`,
        'question: Does the SUT read its own campaign?',
        'rubric: { path: questions/rubric.md, version: "1" }',
        'target: 0.88',
        `reps: ${reps}`,
        'fixtures:',
        '  - fixtures/base.json',
        '  - { path: "constructed/*.json", tag: heldout }',
        `sut: { type: command, command: ["./${sut}"], timeout: ${timeout}, maxOutput: 200 }`,
        'caseFile: questions/case.md',
        '',
      ].join('\n');
    await writeFile(join(dir, 'questions/reads.yaml'), question('reads', 'sut.sh', 3));
    await writeFile(join(dir, 'questions/fails.yaml'), question('fails', 'failing.sh', 5, 3));
  });
  afterAll(async () => t?.cleanup());

  const databaseUrl = (): string | undefined => t.databaseUrl;

  it('runs every rep in a fresh scratch campaign, records responses and effects, and leaves the database as it was', async () => {
    const before = await tableChecksums(t.db);
    const progress: RunProgress[] = [];
    const result = await runQuestion({
      question: 'questions/reads.yaml',
      cwd: t.dir,
      databaseUrl: databaseUrl(),
      concurrency: 2,
      onProgress: (p) => progress.push(p),
    });
    expect(result).toMatchObject({ status: 'complete', total: 6, ran: 6, errors: 0, pending: 0 });
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5, 6]);

    expect((await stat(result.dir)).mode & 0o777).toBe(0o700);
    const manifest = JSON.parse(await readFile(join(result.dir, 'manifest.json'), 'utf8')) as Manifest;
    expect((await stat(join(result.dir, 'manifest.json'))).mode & 0o777).toBe(0o600);
    expect(manifest).toMatchObject({
      format: 'turnkit.run/1',
      status: 'complete',
      concurrency: 2,
      question: { id: 'reads', reps: 3 },
      rubric: { version: '1' },
    });
    expect(manifest.fixtures.map((entry) => [entry.name, entry.tag, entry.bases?.map((base) => base.path)])).toEqual([
      ['base', undefined, undefined],
      ['fixed', 'heldout', ['fixtures/base.json']],
    ]);
    // Fixtures interleave: rep 1 of each, then rep 2 of each.
    expect(
      [...manifest.order]
        .sort((a, b) => a.rep - b.rep || a.fixture.localeCompare(b.fixture))
        .map((entry) => `${entry.fixture}:${entry.rep}`),
    ).toEqual(['base:1', 'fixed:1', 'base:2', 'fixed:2', 'base:3', 'fixed:3']);

    const keys = new Set<string>();
    for (const [name, lastNarration] of [
      ['base', fixture.tables.turns!.rows.find((row) => row.turn_number === 22)!.narration],
      ['fixed', LAST_FIXED],
    ] as const) {
      for (const rep of [1, 2, 3]) {
        const record = JSON.parse(
          await readFile(join(result.dir, `reps/${name}/rep-0${rep}.json`), 'utf8'),
        ) as RepRecord;
        expect(record.error).toBeNull();
        const campaign = /campaign=(\d+)/.exec(record.response!)![1]!;
        keys.add(campaign);
        expect(campaign).not.toBe(fixture.source.root.value);
        expect(record.response).toBe(`campaign=${campaign} fixture=${name} rep=${rep} last=${lastNarration}`);
        expect(record.request).toMatchObject({ campaign, turn: 23, fixture: name, rep });
        expect(JSON.stringify(record)).not.toContain('postgres://');
        expect(record.effects).toMatchObject({ inserted: { turns: 1 }, updated: {}, deleted: {} });
        expect(record.effects!.insertedRows.turns![0]).toMatchObject({ narration: 'played by sh', turn_number: 23 });
        expect(await readFile(join(result.dir, `reps/${name}/rep-0${rep}.md`), 'utf8')).toContain(
          '- inserted 1 row(s) of turns',
        );
      }
    }
    // A fresh campaign per rep.
    expect(keys.size).toBe(6);
    expect(await readFile(join(result.dir, 'case-files/fixed.md'), 'utf8')).toContain(LAST_FIXED);
    expect(
      parseMarks(await readFile(join(result.dir, 'marks.csv'), 'utf8')).map(
        (row) => `${row.fixture},${row.rep},${row.mark}`,
      ),
    ).toEqual(['base,1,', 'base,2,', 'base,3,', 'fixed,1,', 'fixed,2,', 'fixed,3,']);
    expect(await tableChecksums(t.db)).toEqual(before);
    expect(await registryCounts(t.db)).toMatchObject({ campaigns: 0 });
    // The embedded server's password reached the SUT (its psql got in) and no file of the run.
    const password = decodeURIComponent(new URL(t.db.url).password);
    if (backend === 'embedded') expect(password.length).toBeGreaterThanOrEqual(32);
    if (password) {
      for (const entry of await readdir(result.dir, { recursive: true })) {
        const path = join(result.dir, String(entry));
        if ((await stat(path)).isFile()) expect((await readFile(path, 'utf8')).includes(password), path).toBe(false);
      }
    }
  });

  it('records every kind of SUT failure as an error rep with its cause and output, and marks it error', async () => {
    // A secret-named variable of turnkit's environment: a command SUT no longer inherits it (its sut.env does not name
    // it), so what it prints has no key to mask.
    process.env.TURNKIT_TEST_API_KEY = 'sk-test-not-for-files-9f2c';
    const result = await runQuestion({
      question: 'questions/fails.yaml',
      cwd: t.dir,
      databaseUrl: databaseUrl(),
      concurrency: 1,
    }).finally(() => {
      delete process.env.TURNKIT_TEST_API_KEY;
    });
    expect(result).toMatchObject({ status: 'complete', total: 10, errors: 10 });
    const read = async (rep: number): Promise<RepRecord> =>
      JSON.parse(await readFile(join(result.dir, `reps/base/rep-0${rep}.json`), 'utf8')) as RepRecord;
    expect(await read(1)).toMatchObject({
      error: { stage: 'sut', cause: 'exit', message: 'exited with 3: key=' },
      exit: { code: 3 },
      stdoutTail: 'partial output\n',
      stderrTail: 'it broke\nkey=\n',
    });
    expect(await readFile(join(result.dir, 'reps/base/rep-01.md'), 'utf8')).not.toContain('sk-test-not-for-files');
    expect((await read(2)).error).toMatchObject({ cause: 'timeout', message: 'no answer within 3 s' });
    expect((await read(3)).error).toMatchObject({ cause: 'unparseable' });
    expect((await read(4)).error).toMatchObject({ cause: 'empty' });
    expect((await read(5)).error).toMatchObject({ cause: 'output-too-large', message: 'stdout passed 200 bytes' });
    const marks = parseMarks(await readFile(join(result.dir, 'marks.csv'), 'utf8'));
    expect(marks.every((row) => row.mark === 'error')).toBe(true);
    expect(marks.find((row) => row.fixture === 'base' && row.rep === 2)!.note).toBe(
      'sut: timeout: no answer within 3 s',
    );
    expect(await registryCounts(t.db)).toMatchObject({ campaigns: 0 });
  });

  it('stops launching reps when aborted, and --resume runs only what is missing or errored', async () => {
    const abort = new AbortController();
    const first = await runQuestion({
      question: 'questions/reads.yaml',
      cwd: t.dir,
      databaseUrl: databaseUrl(),
      concurrency: 1,
      signal: abort.signal,
      onProgress: (p) => p.done === 2 && abort.abort(),
    });
    // A second rep is in flight beside the SUT's slot (seeding ahead, on either backend): it finishes after the abort.
    const inFlight = 1;
    expect(first).toMatchObject({ status: 'interrupted', ran: 2 + inFlight, pending: 4 - inFlight });
    const marks = parseMarks(await readFile(join(first.dir, 'marks.csv'), 'utf8'));
    expect(marks.filter((row) => row.note.startsWith('not run yet')).length).toBe(4 - inFlight);
    // A grader marks what is there before the run is completed; the mark survives the resume.
    await writeFile(
      join(first.dir, 'marks.csv'),
      (await readFile(join(first.dir, 'marks.csv'), 'utf8')).replace('base,1,,', 'base,1,pass,looked fine'),
    );
    // An errored rep runs again too.
    const errored = JSON.parse(await readFile(join(first.dir, 'reps/fixed/rep-01.json'), 'utf8')) as RepRecord;
    await writeFile(
      join(first.dir, 'reps/fixed/rep-01.json'),
      serializeDocument({ ...errored, error: { stage: 'sut', cause: 'exit', message: 'exited with 1' } }),
    );

    const resumed = await runQuestion({
      question: 'questions/reads.yaml',
      cwd: t.dir,
      databaseUrl: databaseUrl(),
      resume: first.dir,
    });
    expect(resumed).toMatchObject({ dir: first.dir, status: 'complete', ran: 5 - inFlight, errors: 0, pending: 0 });
    const manifest = JSON.parse(await readFile(join(first.dir, 'manifest.json'), 'utf8')) as Manifest;
    // Rounds alternate: base:1 and fixed:1, then fixed:2 (in flight at the abort) before base:2.
    expect(
      manifest.order
        .filter((entry) => entry.attempt === 2)
        .map((entry) => `${entry.fixture}:${entry.rep}`)
        .sort(),
    ).toEqual(['base:2', 'base:3', 'fixed:1', ...(inFlight ? [] : ['fixed:2']), 'fixed:3']);
    expect(manifest.resumed).toHaveLength(1);
    const after = parseMarks(await readFile(join(first.dir, 'marks.csv'), 'utf8'));
    expect(after.map((row) => `${row.fixture},${row.rep},${row.mark},${row.note}`)).toEqual([
      'base,1,pass,looked fine',
      'base,2,,',
      'base,3,,',
      'fixed,1,,',
      'fixed,2,,',
      'fixed,3,,',
    ]);
    // The errored first attempt of fixed rep 1 is kept beside the new record, not overwritten.
    expect((await readdir(join(first.dir, 'reps/fixed'))).filter((name) => name.endsWith('.json')).sort()).toEqual([
      'rep-01.attempt-1.json',
      'rep-01.json',
      'rep-02.json',
      'rep-03.json',
    ]);
    expect(
      (JSON.parse(await readFile(join(first.dir, 'reps/fixed/rep-01.attempt-1.json'), 'utf8')) as RepRecord).error,
    ).toMatchObject({ message: 'exited with 1' });
    // Every start is on disk as it happened, both attempts.
    expect((await readFile(join(first.dir, 'order.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(7);
  });

  it("gives a rep that runs again a fresh row, keeping a person's mark of its earlier response in the history; a broken marks.csv stops a resume before its first rep", async () => {
    // Rep 2 of each fixture crashes while the flag file is there.
    await writeFile(join(t.dir, 'flaky-down'), '');
    await writeFile(
      join(t.dir, 'flaky.sh'),
      '#!/bin/sh\ncat > /dev/null\nif [ -e flaky-down ] && [ "$TURNKIT_REP" = 2 ]; then echo down >&2; exit 4; fi\necho "answer $TURNKIT_REP"\n',
    );
    await chmod(join(t.dir, 'flaky.sh'), 0o755);
    await writeFile(
      join(t.dir, 'questions/flaky.yaml'),
      (await readFile(join(t.dir, 'questions/reads.yaml'), 'utf8'))
        .replace('id: reads', 'id: flaky')
        .replace('./sut.sh', './flaky.sh')
        .replace('reps: 3', 'reps: 2'),
    );
    const first = await runQuestion({
      question: 'questions/flaky.yaml',
      cwd: t.dir,
      databaseUrl: databaseUrl(),
      concurrency: 1,
    });
    expect(first).toMatchObject({ status: 'complete', errors: 2 });
    const marksFile = join(first.dir, 'marks.csv');
    const rows = (): Promise<string[]> =>
      readFile(marksFile, 'utf8').then((text) =>
        parseMarks(text).map((row) => `${row.fixture},${row.rep},${row.mark},${row.note}`),
      );
    expect(await rows()).toEqual([
      'base,1,,',
      'base,2,error,sut: exit: exited with 4: down',
      'fixed,1,,',
      'fixed,2,error,sut: exit: exited with 4: down',
    ]);
    // A person passes base 1 and counts base 2's crash as a fail.
    const marked = (await readFile(marksFile, 'utf8'))
      .replace('base,1,,', 'base,1,pass,')
      .replace('base,2,error,sut: exit: exited with 4: down', 'base,2,fail,I count a crash as a fail');
    await writeFile(marksFile, marked);

    // A marks.csv that does not parse: the resume stops before anything runs or is written, naming the file and line.
    const manifestBefore = await readFile(join(first.dir, 'manifest.json'), 'utf8');
    await writeFile(marksFile, `${marked}fixed,2,"unclosed\n`);
    await expect(
      runQuestion({ question: 'questions/flaky.yaml', cwd: t.dir, databaseUrl: databaseUrl(), resume: first.dir }),
    ).rejects.toThrow(/marks\.csv:\d+/);
    expect(await readFile(join(first.dir, 'manifest.json'), 'utf8')).toBe(manifestBefore);
    expect(existsSync(join(first.dir, 'reps/base/rep-02.attempt-1.json'))).toBe(false);
    await writeFile(marksFile, marked);

    // Fixed SUT: both rep 2s run again. Base 2's fail judged a crash that will not be the rep's response: the resume
    // takes it back as it starts, before any rep runs, so a resume stopped at once (or killed) has done so already.
    await rm(join(t.dir, 'flaky-down'));
    const stopped = new AbortController();
    stopped.abort();
    const none = await runQuestion({
      question: 'questions/flaky.yaml',
      cwd: t.dir,
      databaseUrl: databaseUrl(),
      resume: first.dir,
      signal: stopped.signal,
    });
    expect(none).toMatchObject({ ran: 0 });
    expect(await rows()).toEqual([
      'base,1,pass,',
      'base,2,error,sut: exit: exited with 4: down',
      'fixed,1,,',
      'fixed,2,error,sut: exit: exited with 4: down',
    ]);
    const resumed = await runQuestion({
      question: 'questions/flaky.yaml',
      cwd: t.dir,
      databaseUrl: databaseUrl(),
      resume: first.dir,
    });
    expect(resumed).toMatchObject({ status: 'complete', ran: 2, errors: 0 });
    expect(await rows()).toEqual(['base,1,pass,', 'base,2,,', 'fixed,1,,', 'fixed,2,,']);
    const history = (await readFile(join(first.dir, 'marks.history.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(history).toEqual([
      {
        fixture: 'base',
        rep: 2,
        from: { mark: 'fail', note: 'I count a crash as a fail' },
        to: { mark: 'error', note: 'sut: exit: exited with 4: down' },
        by: 'turnkit run --resume: the rep runs again',
      },
    ]);
  });

  it('says so, and records it, when a resume runs on another database server than the run started on', async () => {
    const first = await runQuestion({
      question: 'questions/reads.yaml',
      cwd: t.dir,
      databaseUrl: databaseUrl(),
      reps: 1,
    });
    const file = join(first.dir, 'manifest.json');
    const started = JSON.parse(await readFile(file, 'utf8')) as Manifest;
    expect(first.warnings).toEqual([]);
    await writeFile(
      file,
      serializeDocument({ ...started, database: { ...started.database, serverVersion: '9.6.24' } }),
    );
    const heard: string[] = [];
    const resumed = await runQuestion({
      question: 'questions/reads.yaml',
      cwd: t.dir,
      databaseUrl: databaseUrl(),
      resume: first.dir,
      onWarning: (message) => heard.push(message),
    });
    const expected = `${relative(t.dir, first.dir)} was started on ${backend} 9.6.24; its remaining reps run on ${backend} ${started.database.serverVersion} (recorded in the manifest)`;
    expect(resumed.warnings).toEqual([expected]);
    expect(heard).toEqual([expected]);
    const manifest = JSON.parse(await readFile(file, 'utf8')) as Manifest;
    expect(manifest.resumed?.at(-1)?.database).toEqual({ backend, serverVersion: started.database.serverVersion });
    // Every later resume is measured against where the run started, too.
    const again = await runQuestion({
      question: 'questions/reads.yaml',
      cwd: t.dir,
      databaseUrl: databaseUrl(),
      resume: first.dir,
    });
    expect(again.warnings).toEqual([expected]);
  });

  it('runs reps in databases of their own with --strategy database', async () => {
    const result = await runQuestion({
      question: 'questions/reads.yaml',
      cwd: t.dir,
      databaseUrl: databaseUrl(),
      reps: 1,
      strategy: 'database',
      concurrency: 2,
    });
    expect(result).toMatchObject({ status: 'complete', errors: 0, total: 2 });
    const record = JSON.parse(await readFile(join(result.dir, 'reps/base/rep-01.json'), 'utf8')) as RepRecord;
    expect(record.scratch?.strategy).toBe('database');
    // Keys are unchanged in a clone: the SUT plays the fixture's own campaign key.
    expect(record.request.campaign).toBe(fixture.source.root.value);
    expect(record.effects).toMatchObject({ inserted: { turns: 1 }, updated: {}, deleted: {} });
    expect(await registryCounts(t.db)).toMatchObject({ campaigns: 0 });
  });

  it('never reuses a run directory', async () => {
    await rm(join(t.dir, 'runs/reads'), { recursive: true, force: true });
    const a = await runQuestion({ question: 'questions/reads.yaml', cwd: t.dir, databaseUrl: databaseUrl(), reps: 1 });
    const b = await runQuestion({ question: 'questions/reads.yaml', cwd: t.dir, databaseUrl: databaseUrl(), reps: 1 });
    expect(a.dir).not.toBe(b.dir);
    expect((await readdir(join(t.dir, 'runs/reads'))).length).toBe(2);
  });

  it('refuses a concurrency that is not a positive whole number before a run directory is made', async () => {
    await rm(join(t.dir, 'runs/reads'), { recursive: true, force: true });
    for (const concurrency of [0, 2.5])
      await expect(
        runQuestion({ question: 'questions/reads.yaml', cwd: t.dir, databaseUrl: databaseUrl(), concurrency }),
      ).rejects.toMatchObject({
        code: 'USAGE',
        message: `concurrency: expected a positive whole number, got ${concurrency}`,
      });
    expect(existsSync(join(t.dir, 'runs/reads'))).toBe(false);
  });
});

describe.each(psql.found ? BACKENDS : [])('what a SUT does outside its campaign, on %s', (backend) => {
  let t: TestDb;

  beforeAll(async () => {
    let fixture: Fixture;
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 30, turn: 23 }));
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument({ ...fixture, name: 'base' }));
    await writeFile(join(t.dir, 'rubric.md'), 'r\n');
    await writeFile(join(t.dir, 'case.md'), '{{input}}\n');
    // It renames the player's user row (a shared row, not the campaign's) and answers.
    await writeFile(
      join(t.dir, 'outside.sh'),
      '#!/bin/sh\ncat > /dev/null\npsql "$DATABASE_URL" -qc "UPDATE users SET display_name = \'renamed by the SUT\'"\necho done\n',
    );
    await chmod(join(t.dir, 'outside.sh'), 0o755);
    await writeFile(
      join(t.dir, 'outside.yaml'),
      'id: outside\nquestion: q?\nrubric: { path: rubric.md, version: 1 }\ntarget: 0.5\nreps: 1\nfixtures: [fixtures/base.json]\nsut: { type: command, command: [./outside.sh] }\ncaseFile: case.md\n',
    );
  });
  afterAll(async () => t?.cleanup());

  it('reports a shared row the SUT changed, in the rep record and its Markdown', async () => {
    const result = await runQuestion({ question: 'outside.yaml', cwd: t.dir, databaseUrl: t.databaseUrl });
    expect(result).toMatchObject({ status: 'complete', errors: 0 });
    const record = JSON.parse(await readFile(join(result.dir, 'reps/base/rep-01.json'), 'utf8')) as RepRecord;
    expect(record.response).toBe('done');
    expect(record.outside).toEqual(['users[1]: changed (a shared row, outside the campaign)']);
    expect(await readFile(join(result.dir, 'reps/base/rep-01.md'), 'utf8')).toContain(
      // Escaped as Markdown: `\[` keeps it text, not a link.
      '## Outside its campaign\n\n- users\\[1]: changed (a shared row, outside the campaign)',
    );
    // Not turnkit's to undo: the change stays, reported.
    expect((await t.db.pool.query('SELECT display_name FROM users')).rows.map((row) => row.display_name)).toEqual([
      'renamed by the SUT',
    ]);
  });
});
