import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BIN } from '../helpers/cli.js';
import { BACKENDS } from '../helpers/test-db.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { TEST_SCRUB_KEY } from '../helpers/scrub-key.js';
import { mulberry32 } from '../../src/util/seeded-random.js';
import { collectGarbage } from '../../src/scratch/gc.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { asCommand } from '../helpers/as-command.js';
import { capture } from '../../src/fixture/capture/capture-fixtures.js';
import { FIXTURE_SCHEMA_FILE, fixtureSchema } from '../../src/fixture/format.js';
import { runQuestion } from '../../src/app/run-question.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';

// Kills at the steps other than a run's SUT call: a capture writing its files, `turnkit seed`, `turnkit teardown`,
// and a run's own seed and teardown of a rep. The moment within the step is random, the signal too (SIGKILL, SIGINT
// as a Ctrl-C, or SIGTERM); replay a failure with TURNKIT_FAULT_SEED=<the seed in its message>. One kill of each
// kind per backend and run of the suite: the seed draws another moment and signal every time, which covers more
// than repeating the same kind in one run would (and keeps the file's cost down: each kill is a Node start).
const SEED = Number(process.env.TURNKIT_FAULT_SEED ?? Date.now() % 2 ** 31);
const SIGNALS = ['SIGKILL', 'SIGINT', 'SIGTERM'] as const;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The built binary in the project, with its stderr collected and its end awaited. */
function spawnTurnkit(
  p: FaultProject,
  args: string[],
): { child: ChildProcess; exited: Promise<number | null>; stderr: () => string } {
  const child = spawn(
    process.execPath,
    [BIN, ...args, ...(p.t.databaseUrl ? ['--database-url', p.t.databaseUrl] : [])],
    {
      cwd: p.t.dir,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

/** How long a command takes from spawn to exit here and now (the window its kills are drawn from). */
async function timed(p: FaultProject, args: string[]): Promise<number> {
  const started = performance.now();
  const { exited, stderr } = spawnTurnkit(p, args);
  const code = await exited;
  if (code !== 0) throw new Error(`turnkit ${args.join(' ')} exited ${code}: ${stderr()}`);
  return performance.now() - started;
}

async function waitFor(what: () => boolean | Promise<boolean>, child: ChildProcess): Promise<void> {
  while (!(await what()) && child.exitCode === null && child.signalCode === null) await sleep(5);
}

describe.each(BACKENDS)(`kills during capture, seed and teardown (seed ${SEED}), on %s`, (backend) => {
  let p: FaultProject;
  let random: () => number;
  const say = (what: string): string => `seed ${SEED} (TURNKIT_FAULT_SEED=${SEED} to replay), ${backend}: ${what}`;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  beforeAll(async () => {
    p = await faultProject(backend);
    random = mulberry32(SEED + (backend === 'postgres' ? 1 : 0));
  });
  afterAll(async () => p?.t.cleanup());

  it('capture --turns: every fixture file whole or absent; the next capture leaves no temporary file', async () => {
    const before = await tableChecksums(p.t.db);
    const args = ['capture', '--campaign', p.campaign, '--turns', '2..11'];
    const captureInto = (out: string) =>
      asCommand(capture, {
        campaign: p.campaign,
        turns: { from: 2, to: 11 },
        out,
        cwd: p.t.dir,
        databaseUrl: p.t.databaseUrl,
        scrubKey: TEST_SCRUB_KEY,
        force: true,
      });
    // The set an uninterrupted capture writes (in this process: it is the files that are compared, not the process).
    await captureInto(join(p.t.dir, 'whole'));
    const whole = (await readdir(join(p.t.dir, 'whole'))).filter((name) => !name.startsWith('.')).sort();
    const out = 'killed';
    const signal = pick(SIGNALS);
    // The folder appears as the first file is written (the schema, then each fixture): the kill lands among them.
    const delay = Math.floor(random() * 25);
    const moment = `${signal} ${delay} ms after the folder appeared`;
    const dir = join(p.t.dir, out);
    const { child, exited } = spawnTurnkit(p, [...args, '--out', out]);
    await waitFor(() => existsSync(dir), child);
    await sleep(delay);
    child.kill(signal);
    await exited;
    // Whole or absent, file by file: each fixture there parses and equals the one an uninterrupted capture wrote.
    const names = existsSync(dir) ? (await readdir(dir)).filter((name) => !name.startsWith('.')) : [];
    for (const name of names) {
      // The schema snapshots' folder (written before the first fixture): each snapshot in it whole too.
      if ((await stat(join(dir, name))).isDirectory()) {
        for (const inner of (await readdir(join(dir, name))).filter((entry) => !entry.startsWith('.')))
          expect(
            () => JSON.parse(readFileSync(join(dir, name, inner), 'utf8')),
            say(`${moment}: ${inner}`),
          ).not.toThrow();
        continue;
      }
      const text = await readFile(join(dir, name), 'utf8');
      expect(() => JSON.parse(text), say(`${moment}: ${name}`)).not.toThrow();
      if (name !== FIXTURE_SCHEMA_FILE && name.endsWith('.json'))
        expect(fixtureSchema.safeParse(JSON.parse(text)).success, say(`${moment}: ${name}`)).toBe(true);
    }
    expect(whole, say(moment)).toEqual(expect.arrayContaining(names));
    // The next capture into the folder finishes the set and leaves no temporary file of the killed one.
    await captureInto(dir);
    expect((await readdir(dir)).sort(), say(moment)).toEqual(whole);
    expect(await tableChecksums(p.t.db), say('after the captures')).toEqual(before);
  });

  it('turnkit seed and turnkit teardown: after gc the database is as it was', async () => {
    const before = await tableChecksums(p.t.db);
    const session = new ScratchSession(p.t.db, { game: p.t.config.game, owner: null });
    const seedWindow = await timed(p, ['seed', 'fixtures/base.json']);
    await collectGarbage(p.t.db, { all: true });
    const probe = await session.seed(p.fixture);
    const teardownWindow = await timed(p, ['teardown', probe.id]);
    const signal = pick(SIGNALS);
    // Mid-life is where it writes: first come Node, the config and the connection; last, the exit.
    const seedDelay = Math.floor((0.25 + 0.5 * random()) * seedWindow);
    const seeding = spawnTurnkit(p, ['seed', 'fixtures/base.json']);
    await sleep(seedDelay);
    seeding.child.kill(signal);
    await seeding.exited;
    // A seed the kill came too late for left a campaign seeded by hand: gc --all removes it, with any half of one.
    const moment = `seed, ${signal} after ${seedDelay} of ${Math.round(seedWindow)} ms`;
    const gc = await collectGarbage(p.t.db, { all: true });
    expect(gc.failed, say(moment)).toEqual([]);
    expect(await registryCounts(p.t.db), say(moment)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    expect(await tableChecksums(p.t.db), say(moment)).toEqual(before);

    const scratch = await session.seed(p.fixture);
    const teardownDelay = Math.floor((0.4 + 0.6 * random()) * teardownWindow);
    const tearing = spawnTurnkit(p, ['teardown', scratch.id]);
    await sleep(teardownDelay);
    tearing.child.kill(signal);
    await tearing.exited;
    const killed = `teardown, ${signal} after ${teardownDelay} of ${Math.round(teardownWindow)} ms`;
    // Either it was gone or it is whole: gc --all tears it down like any other.
    const after = await collectGarbage(p.t.db, { all: true });
    expect(after.failed, say(killed)).toEqual([]);
    expect(await registryCounts(p.t.db), say(killed)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    expect(await tableChecksums(p.t.db), say(killed)).toEqual(before);
  });

  it("turnkit run killed in a rep's seed or teardown: gc leaves the database as it was, the run resumes", async () => {
    // Each SUT notes its end just before it exits: its rep's teardown follows at once.
    const question = await p.question('phases', '#!/bin/sh\ncat > /dev/null\necho "$TURNKIT_REP" >> ended\necho ok\n', {
      reps: 2,
    });
    const before = await tableChecksums(p.t.db);
    const runsDir = join(p.t.dir, 'runs', 'phases');
    const newest = async (): Promise<string | undefined> =>
      existsSync(runsDir) ? (await readdir(runsDir)).sort().at(-1) : undefined;
    for (const phase of ['seed', 'teardown'] as const) {
      const signal = pick(SIGNALS);
      const delay = Math.floor(random() * 60);
      const previous = await newest();
      const ended = join(p.t.dir, 'ended');
      const endedBefore = existsSync(ended) ? (await readFile(ended, 'utf8')).length : 0;
      const { child, exited, stderr } = spawnTurnkit(p, ['run', question, '--concurrency', '1']);
      // seed: the first rep's start is on disk just before its seed; teardown: a SUT has just ended.
      await waitFor(async () => {
        const name = await newest();
        if (phase === 'seed')
          return name !== previous && name !== undefined && existsSync(join(runsDir, name, 'order.jsonl'));
        return existsSync(ended) && (await readFile(ended, 'utf8')).length > endedBefore;
      }, child);
      await sleep(delay);
      child.kill(signal);
      const code = await exited;
      const moment = `${phase}: ${signal} ${delay} ms after it began (exit ${code}; ${stderr().trim().split('\n').at(-1)})`;
      // A Ctrl-C lets the running rep finish and tear down; SIGKILL leaves it to gc.
      await collectGarbage(p.t.db);
      expect(await registryCounts(p.t.db), say(moment)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
      expect(await tableChecksums(p.t.db), say(moment)).toEqual(before);
      const name = await newest();
      if (name === previous || !existsSync(join(runsDir, name!, 'manifest.json'))) continue;
      const resumed = await runQuestion({
        question,
        cwd: p.t.dir,
        databaseUrl: p.t.databaseUrl,
        resume: join('runs', 'phases', name!),
      });
      expect(resumed, say(moment)).toMatchObject({ status: 'complete', pending: 0, errors: 0 });
      const marks = parseMarks(await readFile(join(runsDir, name!, 'marks.csv'), 'utf8'));
      expect(
        marks.map((row) => row.rep),
        say(moment),
      ).toEqual([1, 2]);
      expect(await tableChecksums(p.t.db), say(`${moment}, resumed`)).toEqual(before);
    }
  });
});
