// npm run bench:capture — capture time and peak memory for sample campaigns of 50, 500, 5,000 and 50,000 turns,
// beside a floor measured in the same run on the same database: COPY (SELECT ...) TO STDOUT of the same rows, in
// memory and streamed to a file as the CLI does; then
// (real Postgres) the whole `turnkit capture` process against `pg_dump --data-only` of the same campaign.
// Uses DATABASE_URL when set (a scratch database is created and dropped there), else a fresh embedded database.
// BENCH_SIZES (comma-separated turns) replaces the sizes; BENCH_PROCESS_SIZES those of the whole-process part
// (default 5000,50000; "none" skips it); BENCH_REPEATS and BENCH_PROCESS_ROUNDS the runs of each.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { withBenchDatabase } from './bench-database.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { measureProcess, processBenchMissing } from './capture-process.js';

const sizes = (text: string | undefined, fallback: number[]): number[] =>
  text === undefined ? fallback : text === 'none' ? [] : text.split(',').map(Number);
const SIZES = sizes(process.env.BENCH_SIZES, [50, 500, 5000, 50000]);
const PROCESS_SIZES = sizes(process.env.BENCH_PROCESS_SIZES, [5000, 50000]);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 9);
const PROCESS_ROUNDS = Number(process.env.BENCH_PROCESS_ROUNDS ?? 5);

interface Measured {
  floor: number[];
  capture: number[];
  scrub: number[];
  streamed: number[];
  streamedScrub: number[];
  rows: number;
  bytes: number;
  startRssMb: number;
  peakRssMb: number;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
// Ratio of each run to its own round's baseline: median and range, so noise on a shared machine shows.
const ratios = (values: number[], baselines: number[]): string => {
  const each = values.map((value, i) => value / baselines[i]!);
  return `${median(each).toFixed(2)}x (${Math.min(...each).toFixed(2)}-${Math.max(...each).toFixed(2)})`;
};

function measure(url: string, campaign: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'capture-one.ts'), url, campaign, String(REPEATS)],
      {
        // From the repository, so that --import tsx resolves; the child connects by URL, it needs no project.
        cwd: join(import.meta.dirname, '..'),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as Measured) : reject(new Error(`measurement exited with ${code}`)),
    );
  });
}

await withBenchDatabase(async (db) => {
  console.log(
    `capture benchmark on ${db.backend === 'embedded' ? 'the embedded database' : db.displayUrl}, median of ${REPEATS} runs each`,
  );
  console.log('');
  const lines: string[][] = [
    [
      'turns',
      'rows',
      'fixture',
      'COPY floor',
      'capture',
      'capture/floor',
      'scrubbed',
      'scrubbed/floor',
      'scrubbed/capture',
      'streamed',
      'streamed/floor',
      'streamed scrubbed/floor',
      'ms per 1k turns',
      'peak RSS in capture',
      'RSS before',
    ],
  ];
  const results: { turns: number; capture: number }[] = [];
  for (const turns of SIZES) {
    const campaign = await createSampleCampaign(db, { turns });
    const m = await measure(db.url, campaign);
    const [floor, capture, scrubbed] = [median(m.floor), median(m.capture), median(m.scrub)];
    results.push({ turns, capture });
    lines.push([
      String(turns),
      String(m.rows),
      `${(m.bytes / 1024 / 1024).toFixed(2)} MB`,
      `${floor.toFixed(1)} ms`,
      `${capture.toFixed(1)} ms`,
      ratios(m.capture, m.floor),
      `${scrubbed.toFixed(1)} ms`,
      ratios(m.scrub, m.floor),
      ratios(m.scrub, m.capture),
      `${median(m.streamed).toFixed(1)} ms`,
      ratios(m.streamed, m.floor),
      ratios(m.streamedScrub, m.floor),
      ((capture / turns) * 1000).toFixed(1),
      `${m.peakRssMb.toFixed(0)} MB`,
      `${m.startRssMb.toFixed(0)} MB`,
    ]);
  }
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((line) => line[i]!.length)));
  for (const line of lines) console.log(line.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
  console.log('');
  for (let i = 1; i < results.length; i++) {
    const [from, to] = [results[i - 1]!, results[i]!];
    console.log(
      `growth ${from.turns} -> ${to.turns} turns: ${(to.capture / from.capture).toFixed(2)}x the time for ${(to.turns / from.turns).toFixed(0)}x the turns`,
    );
  }
  console.log(
    'capture: no scrub rules, no detector; scrubbed: the sample rules, input and narration redacted, the detector on',
  );
  console.log(
    'capture and scrubbed: in memory, the rows collected into the fixture (no text made); streamed: to a file as the CLI writes it (streamTo)',
  );
  console.log(
    'goals at 5,000 and 50,000 turns: capture/floor and scrubbed/floor within 2x, scrubbed/capture within 1.3x',
  );
  console.log("ratios: median of each run against its own round's floor (range in brackets)");
  if (db.backend === 'postgres') await wholeProcess();
  else console.log(`\nwhole process against pg_dump: skipped (${processBenchMissing()})`);
});

// `turnkit capture` as a new process against `pg_dump --data-only`, each size in a database of its own.
async function wholeProcess(): Promise<void> {
  if (PROCESS_SIZES.length === 0) return;
  console.log('');
  const missing = processBenchMissing();
  if (missing) {
    console.log(`whole process against pg_dump: skipped (${missing})`);
    return;
  }
  console.log(
    `whole process: turnkit capture (built CLI, JSON config, sample rules) against pg_dump --data-only of a database holding only that campaign, ${PROCESS_ROUNDS} interleaved rounds`,
  );
  const lines: string[][] = [
    [
      'turns',
      'fixture',
      'pg_dump',
      'capture',
      'capture/pg_dump',
      'pg_dump RSS',
      'capture RSS',
      'RSS/pg_dump',
      'RSS over --version',
      'that/fixture',
    ],
  ];
  for (const turns of PROCESS_SIZES) {
    const m = await measureProcess(turns, PROCESS_ROUNDS);
    const rss = median(m.captureRss);
    const own = rss - m.idleRss;
    lines.push([
      String(turns),
      `${(m.fixtureBytes / 1024 / 1024).toFixed(2)} MB`,
      `${median(m.dump).toFixed(0)} ms`,
      `${median(m.capture).toFixed(0)} ms`,
      ratios(m.capture, m.dump),
      `${median(m.dumpRss).toFixed(0)} MB`,
      `${rss.toFixed(0)} MB`,
      ratios(m.captureRss, m.dumpRss),
      `${own.toFixed(0)} MB`,
      `${(own / (m.fixtureBytes / 1024 / 1024)).toFixed(2)}x`,
    ]);
  }
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((line) => line[i]!.length)));
  for (const line of lines) console.log(line.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
  console.log('');
  console.log(
    'goals: capture/pg_dump within 3x; peak RSS flat in the campaign size, what capture adds over `turnkit --version` at most 2x the fixture',
  );
}
