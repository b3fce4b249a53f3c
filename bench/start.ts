// npm run bench:start — what a person waits for before a command does anything, against `node -e 0` measured in the
// same run, rounds interleaved so that a busy moment of the machine falls on every command alike.
//  - `turnkit --version`, `turnkit report --help`, `turnkit capture --help`: goal within 2x of `node -e 0`.
//  - `turnkit report RUN` of a 20-rep run (the demo's, marks from its checks): goal within 2.5x.
// And the number of ES modules each turnkit command loads (test/helpers/module-trace.mjs), which no busy moment moves.
// Whole processes of the built binary (npm run build first), medians of ROUNDS (default 7) wall times, and of their
// CPU times (user + system, bench/cpu-at-exit.mjs, loaded into every command alike, node -e 0 too), which a busy
// machine disturbs less.
// The performance machinery is measured against its simplest alternative in the same rounds (docs/architecture.md,
// "The start-up budget"): `import('zod')` alone, which a report would pay without the lean shapes. Last, the import
// closure of `turnkit run`: the files of src/ a one-rep run of the demo question loads.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceFiles } from '../test/helpers/import-graph.js';
import { performance } from 'node:perf_hooks';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
// BENCH_BIN measures another build (an earlier commit's) with the same rounds.
const BIN = resolve(process.env.BENCH_BIN ?? 'dist/src/cli/bin.js');
// BENCH_BASE_BIN: an earlier build's `report RUN` too, in the same interleaved rounds (before/after in one run).
const BASE_BIN = process.env.BENCH_BASE_BIN ? resolve(process.env.BENCH_BASE_BIN) : undefined;
const TRACE_HOOK = fileURLToPath(new URL('../test/helpers/module-trace.mjs', import.meta.url));
const CPU_HOOK = fileURLToPath(new URL('./cpu-at-exit.mjs', import.meta.url));
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

const ROOT = fileURLToPath(new URL('../', import.meta.url));
// The built src/ the binary is part of (dist/src/cli/bin.js): the files the closure counts.
const BUILT_SRC = resolve(BIN, '..', '..');

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
    "node: import('zod')": ['--input-type=module', '-e', `await import('${import.meta.resolve('zod')}')`],
    ...(BASE_BIN ? { 'BENCH_BASE_BIN report RUN': [BASE_BIN, 'report', runDir, '--marks', 'marks.checks.csv'] } : {}),
  };
  const times = new Map<string, number[]>(Object.keys(commands).map((name) => [name, []]));
  const cpuTimes = new Map<string, number[]>(Object.keys(commands).map((name) => [name, []]));
  const cpuFile = join(dir, 'cpu.txt');
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, args] of Object.entries(commands)) {
      await rm(cpuFile, { force: true });
      const started = performance.now();
      const result = spawnSync(process.execPath, ['--import', CPU_HOOK, ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, BENCH_CPU_FILE: cpuFile },
      });
      const ms = performance.now() - started;
      if (result.status !== 0) throw new Error(`${name} exited ${result.status}: ${result.stderr}`);
      times.get(name)!.push(ms);
      cpuTimes.get(name)!.push(Number((await readFile(cpuFile, 'utf8')).split('\n')[0]));
    }
  }
  // Modules loaded, once per command: all of them, and those from node_modules.
  const modules = new Map<string, string>();
  for (const [name, args] of Object.entries(commands)) {
    if (name.startsWith('node')) continue;
    const trace = join(dir, 'trace.txt');
    await rm(trace, { force: true });
    const result = spawnSync(process.execPath, ['--import', TRACE_HOOK, ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, TURNKIT_MODULE_TRACE: trace },
    });
    if (result.status !== 0) throw new Error(`${name} (traced) exited ${result.status}: ${result.stderr}`);
    const urls = (await readFile(trace, 'utf8')).split('\n').filter((url) => url.startsWith('file:'));
    modules.set(
      name,
      `${urls.length} modules (${urls.filter((url) => url.includes('/node_modules/')).length} from node_modules)`,
    );
  }
  const floor = median(times.get('node -e 0')!);
  const cpuFloor = median(cpuTimes.get('node -e 0')!);
  // Each round's ratio to that round's node -e 0: the spread a busy machine gives.
  const range = (name: string): string => {
    const ratios = times.get(name)!.map((ms, round) => ms / times.get('node -e 0')![round]!);
    return `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`;
  };
  console.log(`start-up benchmark: medians of ${ROUNDS} interleaved rounds, whole processes (wall; CPU user + system)`);
  for (const [name, values] of times) {
    const goal = !name.startsWith('turnkit') ? '' : name.includes('RUN') ? ' (goal <= 2.5x)' : ' (goal <= 2x)';
    const ratio = median(values) / floor;
    const cpu = median(cpuTimes.get(name)!);
    console.log(
      `  ${name.padEnd(30)} ${median(values).toFixed(0).padStart(6)} ms  ${ratio.toFixed(2)}x node -e 0 (rounds ${range(name)})${goal}  CPU ${cpu.toFixed(0)} ms ${(cpu / cpuFloor).toFixed(2)}x${modules.has(name) ? `  ${modules.get(name)}` : ''}`,
    );
  }
  // The import closure of `turnkit run`: one rep of each of the demo question's fixtures, every module it loads.
  const projectDir = resolve(runDir, '..', '..', '..');
  const trace = join(dir, 'run-trace.txt');
  const run = spawnSync(
    process.execPath,
    ['--import', TRACE_HOOK, BIN, 'run', 'questions/places.yaml', '--reps', '1', '--json'],
    { cwd: projectDir, encoding: 'utf8', env: { ...process.env, TURNKIT_MODULE_TRACE: trace } },
  );
  if (run.status !== 0) throw new Error(`turnkit run (traced) exited ${run.status}: ${run.stderr}`);
  const loaded = new Set(
    (await readFile(trace, 'utf8'))
      .split('\n')
      .filter((url) => url.startsWith(pathToFileURL(BUILT_SRC).href))
      .map((url) => url.slice(pathToFileURL(BUILT_SRC).href.length + 1)),
  );
  const all = sourceFiles(join(ROOT, 'src')).length;
  console.log(
    `  import closure of turnkit run (one rep a fixture of the demo question): ${loaded.size} of ${all} files of src/ (${((100 * loaded.size) / all).toFixed(1)}%; goal under 40%)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
