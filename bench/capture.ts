// npm run bench:capture — capture time and peak memory for sample campaigns of 50, 500 and 5,000 turns, beside a
// floor measured in the same run on the same database: COPY (SELECT ...) TO STDOUT of the same rows.
// Uses DATABASE_URL when set (a scratch database is created and dropped there), else a fresh embedded database.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { withBenchDatabase } from './bench-database.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';

const SIZES = [50, 500, 5000];
const REPEATS = Number(process.env.BENCH_REPEATS ?? 9);

interface Measured {
  floor: number[];
  capture: number[];
  scrub: number[];
  rows: number;
  bytes: number;
  startRssMb: number;
  peakRssMb: number;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

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
    `capture benchmark on ${db.backend === 'embedded' ? 'the embedded database (PGlite)' : db.displayUrl}, median of ${REPEATS} runs each`,
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
      'scrubbed/capture',
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
      `${(capture / floor).toFixed(2)}x`,
      `${scrubbed.toFixed(1)} ms`,
      `${(scrubbed / capture).toFixed(2)}x`,
      ((capture / turns) * 1000).toFixed(1),
      `${m.peakRssMb.toFixed(0)} MB`,
      `${m.startRssMb.toFixed(0)} MB`,
    ]);
  }
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((line) => line[i]!.length)));
  for (const line of lines) console.log(line.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
  const [, mid, big] = results;
  console.log('');
  console.log(
    `growth 500 -> 5,000 turns: ${(big!.capture / mid!.capture).toFixed(2)}x the time for 10x the turns (linear is 10x)`,
  );
  console.log(
    'capture: no scrub rules, no detector; scrubbed: the sample rules, input and narration redacted, the detector on',
  );
  console.log(
    'goals at 5,000 turns: capture/floor within 3x, scrubbed/capture within 1.3x, peak RSS (scrubbed) under 300 MB',
  );
});
