// The whole-process part of `npm run bench:capture`: `turnkit capture` as a user runs it (a new process, the built
// CLI, a JSON config with the sample's rules) against `pg_dump --data-only` of a database holding only that
// campaign, interleaved round by round, with the peak RSS of both (GNU time's %M). Real Postgres only: the
// installed pg_dump (15) cannot read the embedded server (PostgreSQL 18), and the packages ship none.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleGameConfig } from '../src/config/sample-config.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { BENCH_SCRUB_KEY, withBenchDatabase } from './bench-database.js';

// BENCH_BIN: another build's CLI (an earlier dist copied aside), for before/after figures from the same harness.
const BIN = process.env.BENCH_BIN ?? join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'bin.js');
const TIME = '/usr/bin/time';

/** One size's figures: wall times and peak RSS (MB) of each run, and the fixture's bytes. */
export interface ProcessMeasured {
  turns: number;
  capture: number[];
  dump: number[];
  captureRss: number[];
  dumpRss: number[];
  /** `turnkit --version`'s peak RSS: what any turnkit process holds before it captures anything. */
  idleRss: number;
  fixtureBytes: number;
  dumpBytes: number;
}

/** Why the whole-process part cannot run here, or undefined when it can. */
export function processBenchMissing(): string | undefined {
  if (!process.env.DATABASE_URL) return 'needs DATABASE_URL (pg_dump cannot read the embedded database)';
  if (!existsSync(TIME)) return `needs GNU time at ${TIME} for peak RSS`;
  if (spawnSync('pg_dump', ['--version']).status !== 0) return 'needs pg_dump on PATH';
  if (!existsSync(BIN)) return 'needs the built CLI: run npm run build';
  return undefined;
}

// Runs a command under GNU time: wall milliseconds and peak RSS in MB; stdout is counted, not kept.
function timed(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): { ms: number; rssMb: number } {
  const started = performance.now();
  const result = spawnSync(TIME, ['-f', 'TURNKIT_BENCH_RSS %M', command, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  const rss = /TURNKIT_BENCH_RSS (\d+)/.exec(result.stderr);
  if (result.status !== 0 || !rss)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr.slice(0, 2000)}`);
  return { ms, rssMb: Number(rss[1]) / 1024 };
}

/** Measures one campaign size in a database of its own, `rounds` interleaved pairs. */
export async function measureProcess(turns: number, rounds: number): Promise<ProcessMeasured> {
  let measured: ProcessMeasured | undefined;
  await withBenchDatabase(async (db) => {
    const campaign = await createSampleCampaign(db, { turns });
    const dir = await mkdtemp(join(tmpdir(), 'turnkit-bench-process-'));
    try {
      // JSON, as a project may write it: a .ts config adds tsx's start-up, which is not capture's work.
      await writeFile(
        join(dir, 'turnkit.config.json'),
        `${JSON.stringify({ game: sampleGameConfig.game, scrub: sampleGameConfig.scrub }, null, 2)}\n`,
      );
      const env = { ...process.env, TURNKIT_SCRUB_KEY: BENCH_SCRUB_KEY, DATABASE_URL: db.url };
      const captureArgs = [
        BIN,
        'capture',
        '--campaign',
        campaign,
        '--latest',
        '--force',
        '--out',
        'out',
        '--name',
        'f',
      ];
      const m: ProcessMeasured = {
        turns,
        capture: [],
        dump: [],
        captureRss: [],
        dumpRss: [],
        idleRss: timed(process.execPath, [BIN, '--version'], env, dir).rssMb,
        fixtureBytes: 0,
        dumpBytes: 0,
      };
      const runCapture = (): void => {
        const { ms, rssMb } = timed(process.execPath, captureArgs, env, dir);
        m.capture.push(ms);
        m.captureRss.push(rssMb);
      };
      const runDump = (): void => {
        const { ms, rssMb } = timed('pg_dump', ['--data-only', '--file', join(dir, 'dump.sql'), db.url], env, dir);
        m.dump.push(ms);
        m.dumpRss.push(rssMb);
      };
      for (let i = 0; i < rounds; i++) {
        // Alternate which goes first, so that neither gains from the other's warm caches.
        if (i % 2 === 0) {
          runCapture();
          runDump();
        } else {
          runDump();
          runCapture();
        }
      }
      m.fixtureBytes = (await stat(join(dir, 'out', 'f.json'))).size;
      m.dumpBytes = (await stat(join(dir, 'dump.sql'))).size;
      measured = m;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  return measured!;
}
