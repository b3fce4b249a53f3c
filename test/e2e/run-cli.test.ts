import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { BIN } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { copySampleFiles, sampleProject } from '../helpers/sample-project.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import type { Manifest } from '../../src/run-dir/manifest.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

const FIXTURES = ['meridian-turn-23', 'meridian-turn-23-deck-fixed'];
// Both answers of the sample SUT name Dr. Hale; the terminal must show neither.
const RESPONSE_WORDS = 'Dr. Hale';

describe('turnkit run through the CLI, with the sample question and sample SUT', () => {
  let project: string;
  let runDir: string;

  beforeAll(async () => {
    project = await sampleProject('turnkit-e2e-run-');
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('runs 2 reps of each fixture, prints plain progress lines and a summary, never the responses', async () => {
    const result = await runInProcess(['run', 'questions/places.yaml', '--reps', '2'], { cwd: project });
    expect(result.code, result.stderr).toBe(0);

    const summary = /^(runs\/places\/[^:\s]+): complete, 4 rep\(s\) run, 0 error\(s\)$/m.exec(result.stdout);
    expect(summary, result.stdout).not.toBeNull();
    runDir = summary![1]!;
    expect(result.stdout).toContain(`mark the reps: turnkit mark ${runDir} (or edit its marks.csv`);

    // Not a TTY: one plain line per rep, no carriage returns or escape codes.
    expect(result.stderr).not.toMatch(/[\r\x1b]/);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    lines.forEach((line, i) => {
      expect(line).toMatch(
        new RegExp(
          `^\\[${i + 1}/4\\] 0 error\\(s\\), \\d+(\\.\\d)? s elapsed(, about \\d+(\\.\\d)? s left)?; (${FIXTURES.join('|')}) rep [12] ok in \\d+(\\.\\d)? s$`,
        ),
      );
    });
    // The ETA is gone once every rep is done.
    expect(lines[3]).not.toContain('left');
    // Every (fixture, rep) appears once in the progress.
    expect(lines.map((line) => /; (\S+) rep (\d)/.exec(line)!.slice(1).join(':')).sort()).toEqual([
      'meridian-turn-23-deck-fixed:1',
      'meridian-turn-23-deck-fixed:2',
      'meridian-turn-23:1',
      'meridian-turn-23:2',
    ]);

    expect(result.stdout + result.stderr).not.toContain(RESPONSE_WORDS);
    // ...though the responses are in the run directory.
    for (const fixture of FIXTURES) {
      for (const rep of ['01', '02']) {
        const record = JSON.parse(
          await readFile(join(project, runDir, 'reps', fixture, `rep-${rep}.json`), 'utf8'),
        ) as RepRecord;
        expect(record.error).toBeNull();
        expect(record.response).toContain(RESPONSE_WORDS);
      }
    }
  });

  it('leaves a complete run directory: manifest, case files, four reps and blank marks', async () => {
    const dir = join(project, runDir);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest).toMatchObject({
      format: 'turnkit.run/1',
      status: 'complete',
      question: { id: 'places', reps: 2 },
      concurrency: 4,
      database: { backend: 'embedded' },
    });
    expect(manifest.order).toHaveLength(4);
    expect((await readdir(join(dir, 'case-files'))).sort()).toEqual(FIXTURES.map((name) => `${name}.md`).sort());
    expect(await readFile(join(dir, 'case-files', 'meridian-turn-23.md'), 'utf8')).toContain(
      '| Mess Hall | The mess hall is on deck 2 (Habitation), next to the crew berths. | 1.000 |',
    );
    for (const fixture of FIXTURES)
      expect((await readdir(join(dir, 'reps', fixture))).sort()).toEqual([
        'rep-01.json',
        'rep-01.md',
        'rep-02.json',
        'rep-02.md',
      ]);
    const marks = parseMarks(await readFile(join(dir, 'marks.csv'), 'utf8'));
    expect(marks.map((row) => [row.fixture, row.rep, row.mark, row.note])).toEqual([
      ['meridian-turn-23', 1, '', ''],
      ['meridian-turn-23', 2, '', ''],
      ['meridian-turn-23-deck-fixed', 1, '', ''],
      ['meridian-turn-23-deck-fixed', 2, '', ''],
    ]);
  });

  it('resumes a complete run without running anything', async () => {
    const before = await readFile(join(project, runDir, 'reps', 'meridian-turn-23', 'rep-01.json'), 'utf8');
    // The run was started with --reps 2 (the question says 10): a resume keeps the run's own number.
    const result = await runInProcess(['run', 'questions/places.yaml', '--resume', runDir], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^${runDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: complete, 0 rep\\(s\\) run, 0 error\\(s\\)$`, 'm'),
    );
    expect(result.stderr).toBe('');
    expect(await readFile(join(project, runDir, 'reps', 'meridian-turn-23', 'rep-01.json'), 'utf8')).toBe(before);
    expect(parseMarks(await readFile(join(project, runDir, 'marks.csv'), 'utf8'))).toHaveLength(4);
  });

  it('resumes with --resume RUN_DIR alone: the manifest names the question; without either it is wrong usage', async () => {
    const result = await runInProcess(['run', '--resume', runDir], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${runDir}: complete, 0 rep(s) run, 0 error(s)`);
    const neither = await runInProcess(['run'], { cwd: project });
    expect(neither.code).toBe(2);
    expect(neither.stderr.split('\n')[0]).toBe(
      'turnkit run: name the question file (questions/ID.yaml), or --resume RUN_DIR',
    );
  });

  it('refuses to resume with another number of reps, leaving marks.csv alone', async () => {
    const marks = await readFile(join(project, runDir, 'marks.csv'), 'utf8');
    const result = await runInProcess(['run', 'questions/places.yaml', '--resume', runDir, '--reps', '1'], {
      cwd: project,
    });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`--reps 1: ${runDir} was started with 2 reps; resume it without --reps`);
    expect(await readFile(join(project, runDir, 'marks.csv'), 'utf8')).toBe(marks);
  });

  it('verifies questions along with fixtures, as run would check them before its first rep', async () => {
    const ok = await runInProcess(['verify'], { cwd: project });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        'ok fixtures/meridian-turn-23.json',
        'ok constructed/meridian-turn-23-deck-fixed.json',
        'ok questions/places.yaml',
      ]),
    );
    await writeFile(
      join(project, 'broken.yaml'),
      (await readFile(join(project, 'questions/places.yaml'), 'utf8')).replace(
        'path: questions/places-rubric.md',
        'path: questions/gone.md',
      ),
    );
    const broken = await runInProcess(['verify', 'broken.yaml'], { cwd: project });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toBe('broken.yaml:7:9: $.rubric.path: questions/gone.md: no such file\n');
    // A SUT that cannot be found is caught here too, not at the first rep.
    await writeFile(
      join(project, 'no-sut.yaml'),
      (await readFile(join(project, 'questions/places.yaml'), 'utf8'))
        .replace('examples/sample-sut.mjs', 'examples/gone-sut.mjs')
        .replace('[node,', '[turnkit-no-such-program,'),
    );
    const noSut = await runInProcess(['verify', 'no-sut.yaml'], { cwd: project });
    expect(noSut.code).toBe(1);
    expect(noSut.stderr).toMatch(
      /^no-sut\.yaml:\d+:\d+: \$\.sut\.command: turnkit-no-such-program: command not found\n$/,
    );
  });

  it('prints the result as JSON with --json', async () => {
    const result = await runInProcess(['run', 'questions/places.yaml', '--reps', '1', '--json'], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({ status: 'complete', total: 2, ran: 2, errors: 0, pending: 0 });
    expect(printed.dir).toMatch(/^runs\/places\/[^/]+$/);
    expect(printed.dir).not.toBe(runDir);
    expect(result.stdout + result.stderr).not.toContain(RESPONSE_WORDS);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(2);
  });

  it('exits 2 on --reps 0, creating no run directory', async () => {
    const runs = (await readdir(join(project, 'runs', 'places'))).sort();
    const result = await runInProcess(['run', 'questions/places.yaml', '--reps', '0'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toContain("'--reps <n>'");
    expect((await readdir(join(project, 'runs', 'places'))).sort()).toEqual(runs);
  });
});

describe('turnkit run stopped by a real signal on the embedded database, then resumed', () => {
  let project: string;

  beforeAll(async () => {
    project = await sampleProject('turnkit-e2e-sigint-');
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('stops launching on SIGINT, finishes and tears down the running rep, exits 1, and --resume completes the run', async () => {
    // One SUT call at a time: on a loaded machine four at once could all have begun before the signal lands, and a
    // run whose every rep began finishes whole.
    const child = spawn(process.execPath, [BIN, 'run', 'questions/places.yaml', '--reps', '5', '--concurrency', '1'], {
      cwd: project,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        // After two reps are recorded, as a person would press Ctrl-C.
        if (stderr.includes('[2/10]') && !child.killed) {
          child.kill('SIGINT');
          resolve();
        }
      });
    });
    expect(await exited).toBe(1);
    expect(stderr).toContain('stopping: no new reps');
    const dir = /^(runs\/places\/[^:\s]+): interrupted/m.exec(stdout)![1]!;
    expect(stderr).toContain(`interrupted with`);
    const manifest = JSON.parse(await readFile(join(project, dir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.status).toBe('interrupted');
    const marks = parseMarks(await readFile(join(project, dir, 'marks.csv'), 'utf8'));
    const notRun = marks.filter((row) => row.note.startsWith('not run yet')).length;
    expect(notRun).toBeGreaterThan(0);
    expect(notRun).toBeLessThan(9);
    // Nothing of the run is left in the database: the running rep was torn down before the exit.
    const gc = await runInProcess(['gc', '--all', '--json'], { cwd: project });
    expect(JSON.parse(gc.stdout)).toMatchObject({ removed: [] });

    const resumed = await runInProcess(['run', '--resume', dir], { cwd: project });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`${dir}: complete, ${notRun} rep(s) run, 0 error(s)`);
    const after = parseMarks(await readFile(join(project, dir, 'marks.csv'), 'utf8'));
    expect(after.map((row) => `${row.fixture}:${row.rep}`)).toEqual(
      FIXTURES.flatMap((fixture) => [1, 2, 3, 4, 5].map((rep) => `${fixture}:${rep}`)),
    );
    expect(after.every((row) => row.mark === '' && row.note === '')).toBe(true);
  });

  it('quits at once on a second Ctrl-C, and the SUT running then goes with it', async () => {
    // A SUT that writes its pid and then takes a minute: it runs in a process group of its own, which the terminal's
    // Ctrl-C does not reach.
    await writeFile(
      join(project, 'slow-sut.sh'),
      '#!/bin/sh\ncat > /dev/null\necho $$ > slow-sut.pid\nsleep 60\necho late\n',
    );
    await chmod(join(project, 'slow-sut.sh'), 0o755);
    await writeFile(
      join(project, 'questions/slow.yaml'),
      (await readFile(join(project, 'questions/places.yaml'), 'utf8'))
        .replace(/^id: .*$/m, 'id: slow')
        .replace(/command: \[.*\]/, 'command: [./slow-sut.sh]'),
    );
    const child = spawn(process.execPath, [BIN, 'run', 'questions/slow.yaml', '--reps', '1'], {
      cwd: project,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    let sut = 0;
    for (let i = 0; i < 2000 && !sut; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      sut = Number(await readFile(join(project, 'slow-sut.pid'), 'utf8').catch(() => '0'));
    }
    expect(sut).toBeGreaterThan(0);
    child.kill('SIGINT');
    // The second Ctrl-C only once the first was heard: two signals sent before the process runs again are one.
    while (!stderr.includes('stopping: no new reps') && child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    const alive = (): boolean => {
      try {
        process.kill(sut, 0);
        return true;
      } catch {
        return false;
      }
    };
    // The kernel finishes the SUT's exit a moment after turnkit's; 30 s bound a hang on a loaded machine.
    for (const end = Date.now() + 30_000; alive() && Date.now() < end; )
      await new Promise((resolve) => setTimeout(resolve, 20));
    try {
      expect(alive(), `SUT ${sut} still running`).toBe(false);
    } finally {
      if (alive()) process.kill(sut, 'SIGKILL');
    }
    // Its scratch campaign was torn down before the exit: gc finds nothing.
    const gc = await runInProcess(['gc', '--all', '--json'], { cwd: project });
    expect((JSON.parse(gc.stdout) as { removed: unknown[] }).removed).toHaveLength(0);
  });
});

describe('turnkit run on a database the game was never migrated into', () => {
  it('exits 1 when reps could not be seeded, naming the first cause and the resume command', async () => {
    const project = await mkdtemp(join(tmpdir(), 'turnkit-e2e-unmigrated-'));
    try {
      await copySampleFiles(project);
      const result = await runInProcess(['run', 'questions/places.yaml', '--reps', '1'], { cwd: project });
      expect(result.code).toBe(1);
      const last = result.stderr.trimEnd().split('\n').at(-1)!;
      expect(last).toMatch(
        /^runs\/places\/\S+: 2 rep\(s\) could not be seeded, so the SUT never ran on them \(meridian-turn-23 rep 1: fixtures\/meridian-turn-23\.json: \$\.tables\.campaigns: table "campaigns" does not exist in the database .*\); fix the database, then: turnkit run questions\/places\.yaml --resume runs\/places\/\S+$/,
      );
      // No hint to mark reps the SUT never saw.
      expect(result.stdout).not.toContain('turnkit mark');
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
