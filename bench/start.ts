// npm run bench:start — what a person waits for before a command does anything, against `node -e 0` measured in the
// same run, rounds interleaved so that a busy moment of the machine falls on every command alike.
//  - `turnkit --version`, `turnkit report --help`, `turnkit capture --help`: goal within 2x of `node -e 0`.
//  - `turnkit report RUN` of a 20-rep run (the demo's, marks from its checks): goal within 3x.
// Whole processes of the built binary (npm run build first), medians of ROUNDS (default 7) wall times.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
// BENCH_BIN measures another build (an earlier commit's) with the same rounds.
const BIN = resolve(process.env.BENCH_BIN ?? 'dist/src/cli/bin.js');
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

const dir = await mkdtemp(join(tmpdir(), 'turnkit-bench-start-'));
try {
  // A real 20-rep run to report on: the demo's (10 reps of two fixtures), marked by its checks.
  const demo = spawnSync(process.execPath, [BIN, 'demo', '--dir', join(dir, 'demo'), '--json'], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (demo.status !== 0) throw new Error(`turnkit demo failed: ${demo.stderr}`);
  const runDir = resolve(dir, (JSON.parse(demo.stdout) as { run: { dir: string } }).run.dir);

  const commands: Record<string, string[]> = {
    'node -e 0': ['-e', '0'],
    'turnkit --version': [BIN, '--version'],
    'turnkit report --help': [BIN, 'report', '--help'],
    'turnkit capture --help': [BIN, 'capture', '--help'],
    'turnkit report RUN (20 reps)': [BIN, 'report', runDir, '--marks', 'marks.checks.csv'],
  };
  const times = new Map<string, number[]>(Object.keys(commands).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, args] of Object.entries(commands)) {
      const started = performance.now();
      const result = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
      const ms = performance.now() - started;
      if (result.status !== 0) throw new Error(`${name} exited ${result.status}: ${result.stderr}`);
      times.get(name)!.push(ms);
    }
  }
  const floor = median(times.get('node -e 0')!);
  console.log(`start-up benchmark: medians of ${ROUNDS} interleaved rounds, whole processes`);
  for (const [name, values] of times) {
    const goal = name === 'node -e 0' ? '' : name.includes('RUN') ? ' (goal <= 3x)' : ' (goal <= 2x)';
    const ratio = median(values) / floor;
    console.log(
      `  ${name.padEnd(30)} ${median(values).toFixed(0).padStart(6)} ms  ${ratio.toFixed(2)}x node -e 0${goal}`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
