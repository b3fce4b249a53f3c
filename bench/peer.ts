// npm run bench:peer — turnkit beside a peer tool on the same trivial workload: 200 cases, each one call of the same
// `sh` script that prints "ok" and exits, whole processes of the built binary (npm run build first).
//  - turnkit: `turnkit run` of a question with 200 reps of one 23-turn sample fixture, a `command` SUT running the
//    script; each rep seeds a scratch campaign and tears it down (promptfoo has nothing of the kind to do). On the
//    embedded database always, and on DATABASE_URL's server when it is set (a scratch database, dropped after).
//  - the floor, measured in every round: the same script spawned 200 times from Node at the same concurrency, which
//    is what any tool calling an `exec`-style provider pays at the least.
//  - promptfoo, only when BENCH_PROMPTFOO_DIR names a folder where it is installed (node_modules/promptfoo): the same
//    script as an `exec:` provider, 200 tests, `--no-cache`, `-j` the same concurrency. The benchmark installs
//    nothing. promptfoo posts telemetry even with PROMPTFOO_DISABLE_TELEMETRY=1, so it runs with HTTP_PROXY and
//    HTTPS_PROXY at a loopback port nobody listens on and NO_PROXY=127.0.0.1,localhost: nothing leaves the machine.
//    Its config and database live in a temporary folder (PROMPTFOO_CONFIG_DIR), not the user's home.
// Concurrency 1 and 8, interleaved in pairs (turnkit then the other, the order alternating by round), BENCH_ROUNDS
// rounds (default 3). Printed per pair: the whole process's wall time per case, and the cost per case beyond the
// process's start (wall of 200 cases minus wall of 1 case, over 199), as ratios turnkit / floor and turnkit /
// promptfoo, with the range over the rounds. Where /usr/bin/time exists, also the CPU time (user + system, the
// process and the children it waited for) per case: the machine's load moves it much less than wall time.
// BENCH_BASE_BIN (an earlier build's dist/src/cli/bin.js) adds that build's `turnkit run` to the same rounds, next to
// this one's, with the ratio after / before per pair.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'dist/src/cli/bin.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CASES = Number(process.env.BENCH_CASES ?? 200);
const CONCURRENCIES = [1, 8];
const BASE_BIN = process.env.BENCH_BASE_BIN ? resolve(process.env.BENCH_BASE_BIN) : undefined;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
if (!existsSync(BIN)) throw new Error('no dist/src/cli/bin.js: run npm run build first');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** User + system CPU time of the process and its waited-for children (NaN without /usr/bin/time). */
  cpuMs: number;
}

let timed = 0;
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const timeFile = TIME ? join(work, `time-${timed++}.txt`) : undefined;
    const child = timeFile
      ? spawn(TIME!, ['-f', '%U %S', '-o', timeFile, command, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      let cpuMs = Number.NaN;
      if (timeFile && existsSync(timeFile)) {
        // The last line: /usr/bin/time writes "Command exited with non-zero status" above it on a failure.
        const [user, system] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
        cpuMs = (user! + system!) * 1_000;
      }
      done({ code, stdout, stderr, ms, cpuMs });
    });
  });
}

async function must(what: string, ran: Promise<Ran>): Promise<Ran> {
  const result = await ran;
  if (result.code !== 0)
    throw new Error(
      `${what} exited ${result.code}: ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' | ')}`,
    );
  return result;
}

// A loopback port with nothing listening: a proxy there refuses every connection at once.
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

// The floor: the script spawned `cases` times from one Node process, `concurrency` at a time.
const FLOOR = `
const { spawn } = await import('node:child_process');
const [script, cases, concurrency] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
let next = 0;
const one = () => new Promise((done, fail) => {
  const child = spawn(script, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.on('error', fail);
  child.on('close', (code) => (code === 0 && out.trim() === 'ok' ? done() : fail(new Error('bad answer'))));
  child.stdin.on('error', () => {}); // the script need not read its case: an early exit is no failure
  child.stdin.end('# case\\n');
});
await Promise.all(Array.from({ length: concurrency }, async () => { while (next++ < cases) await one(); }));
`;

const work = await mkdtemp(join(tmpdir(), 'turnkit-bench-peer-'));
const adminUrl = process.env.DATABASE_URL || undefined;
const scratchDb = `turnkit_peer_${randomBytes(4).toString('hex')}`;
const admin = async (text: string): Promise<void> => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
};
try {
  const script = join(work, 'ok.sh');
  await writeFile(script, '#!/bin/sh\necho ok\n');
  await chmod(script, 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: '' };
  const scrubKey = randomBytes(32).toString('hex');

  // One project per backend, each with its sample campaign captured at turn 23 and two questions (CASES reps, 1 rep).
  const projects: { label: string; dir: string; flags: string[] }[] = [];
  const backends: { label: string; url?: string }[] = [{ label: 'embedded' }];
  if (adminUrl) {
    await admin(`CREATE DATABASE ${scratchDb}`);
    const url = new URL(adminUrl);
    url.pathname = `/${scratchDb}`;
    backends.push({ label: 'postgres', url: url.toString() });
  }
  for (const backend of backends) {
    const dir = join(work, backend.label);
    await mkdir(dir);
    const flags = backend.url ? ['--database-url', backend.url] : [];
    if (backend.url)
      await must('turnkit db migrate', run(process.execPath, [BIN, 'db', 'migrate', ...flags], dir, env));
    // An earlier build may keep its embedded database elsewhere in the folder (PGlite's .turnkit/pgdata): the game's
    // schema there too, so that it seeds the same fixture.
    else if (BASE_BIN)
      await must('turnkit db migrate (BENCH_BASE_BIN)', run(process.execPath, [BASE_BIN, 'db', 'migrate'], dir, env));
    const sampled = await must(
      'turnkit sample',
      run(process.execPath, [BIN, 'sample', '--turns', '40', ...flags], dir, env),
    );
    const campaign = sampled.stdout.trim().split('\n').at(-1)!;
    await must(
      'turnkit capture',
      run(process.execPath, [BIN, 'capture', '--campaign', campaign, '--turn', '23', '--name', 'base', ...flags], dir, {
        ...env,
        TURNKIT_SCRUB_KEY: scrubKey,
      }),
    );
    await writeFile(join(dir, 'rubric.md'), 'r\n');
    await writeFile(join(dir, 'case.md'), '# {{fixture.name}}\n\n{{input}}\n');
    for (const [id, reps] of [
      ['many', CASES],
      ['one', 1],
    ] as const)
      await writeFile(
        join(dir, `${id}.yaml`),
        `id: ${id}\nquestion: q?\nrubric: { path: rubric.md, version: 1 }\ntarget: 0.9\nreps: ${reps}\nfixtures: [fixtures/base.json]\nsut: { type: command, command: [${JSON.stringify(script)}] }\ncaseFile: case.md\n`,
      );
    projects.push({ label: backend.label, dir, flags });
  }

  // promptfoo, when it is installed where BENCH_PROMPTFOO_DIR says.
  const peerDir = process.env.BENCH_PROMPTFOO_DIR;
  let promptfoo: { main: string; version: string; env: NodeJS.ProcessEnv; dir: string } | undefined;
  if (peerDir) {
    const pkgFile = join(resolve(peerDir), 'node_modules/promptfoo/package.json');
    if (!existsSync(pkgFile))
      throw new Error(`BENCH_PROMPTFOO_DIR=${peerDir}: no node_modules/promptfoo/package.json there`);
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string; bin: string | Record<string, string> };
    const binPath = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin.promptfoo ?? Object.values(pkg.bin)[0]!);
    const dir = join(work, 'promptfoo');
    await mkdir(join(dir, 'home'), { recursive: true });
    const proxy = `http://127.0.0.1:${await closedPort()}`;
    const peerEnv: NodeJS.ProcessEnv = {
      ...env,
      HOME: join(dir, 'home'),
      PROMPTFOO_CONFIG_DIR: join(dir, 'home', '.promptfoo'),
      PROMPTFOO_DISABLE_TELEMETRY: '1',
      PROMPTFOO_DISABLE_UPDATE: '1',
      PROMPTFOO_DISABLE_REMOTE_GENERATION: '1',
      HTTP_PROXY: proxy,
      HTTPS_PROXY: proxy,
      http_proxy: proxy,
      https_proxy: proxy,
      NO_PROXY: '127.0.0.1,localhost',
      no_proxy: '127.0.0.1,localhost',
    };
    for (const [id, cases] of [
      ['many', CASES],
      ['one', 1],
    ] as const) {
      const tests = Array.from({ length: cases }, (_, i) => `  - vars: { input: "case ${i + 1}" }\n`).join('');
      await writeFile(
        join(dir, `${id}.yaml`),
        `prompts: ['{{input}}']\nproviders: [${JSON.stringify(`exec: ${script}`)}]\ntests:\n${tests}`,
      );
    }
    promptfoo = {
      main: join(resolve(peerDir), 'node_modules/promptfoo', binPath),
      version: pkg.version,
      env: peerEnv,
      dir,
    };
  }

  const turnkit = (project: (typeof projects)[number], id: string, concurrency: number, bin = BIN): Promise<Ran> =>
    must(
      `turnkit run ${id}.yaml (${project.label}${bin === BIN ? '' : ', BENCH_BASE_BIN'})`,
      run(
        process.execPath,
        [bin, 'run', `${id}.yaml`, '--concurrency', String(concurrency), ...project.flags],
        project.dir,
        env,
      ),
    );
  const floor = (cases: number, concurrency: number): Promise<Ran> =>
    must(
      'the floor',
      run(
        process.execPath,
        ['--input-type=module', '-e', FLOOR, script, String(cases), String(concurrency)],
        work,
        env,
      ),
    );
  const peer = (id: string, concurrency: number): Promise<Ran> =>
    must(
      `promptfoo eval ${id}.yaml`,
      run(
        process.execPath,
        [
          promptfoo!.main,
          'eval',
          '-c',
          `${id}.yaml`,
          '--no-cache',
          '-j',
          String(concurrency),
          '--no-progress-bar',
          '--no-table',
        ],
        promptfoo!.dir,
        promptfoo!.env,
      ),
    );

  // Per pair: [turnkit, floor, promptfoo?] for CASES cases and for 1 case, per round.
  type Sample = { whole: number; beyond: number; cpu: number; cpuBeyond: number };
  const sample = (many: Ran, one: Ran): Sample => ({
    whole: many.ms / CASES,
    beyond: (many.ms - one.ms) / (CASES - 1),
    cpu: many.cpuMs / CASES,
    cpuBeyond: (many.cpuMs - one.cpuMs) / (CASES - 1),
  });
  const results = new Map<string, { turnkit: Sample[]; base: Sample[]; floor: Sample[]; peer: Sample[] }>();
  console.log(
    `peer benchmark: ${CASES} cases of a trivial sh provider, ${ROUNDS} rounds, pairs interleaved` +
      (promptfoo ? `; promptfoo ${promptfoo.version}` : '; promptfoo not measured (set BENCH_PROMPTFOO_DIR)') +
      (BASE_BIN ? `; before: ${BASE_BIN}` : ''),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const project of projects) {
      for (const concurrency of CONCURRENCIES) {
        const key = `${project.label}, concurrency ${concurrency}`;
        const entry = results.get(key) ?? { turnkit: [], base: [], floor: [], peer: [] };
        results.set(key, entry);
        const steps: (() => Promise<unknown>)[] = [
          async () =>
            entry.turnkit.push(
              sample(await turnkit(project, 'many', concurrency), await turnkit(project, 'one', concurrency)),
            ),
          ...(BASE_BIN
            ? [
                async () =>
                  entry.base.push(
                    sample(
                      await turnkit(project, 'many', concurrency, BASE_BIN),
                      await turnkit(project, 'one', concurrency, BASE_BIN),
                    ),
                  ),
              ]
            : []),
          async () => entry.floor.push(sample(await floor(CASES, concurrency), await floor(1, concurrency))),
        ];
        if (promptfoo)
          steps.push(async () =>
            entry.peer.push(sample(await peer('many', concurrency), await peer('one', concurrency))),
          );
        // Alternate which goes first, so that a busy moment of the machine does not always fall on the same tool.
        if (round % 2 === 1) steps.reverse();
        for (const step of steps) await step();
      }
    }
  }

  const range = (ratios: number[]): string =>
    `${median(ratios).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`;
  const ms = (values: Sample[], part: keyof Sample): string => median(values.map((v) => v[part])).toFixed(1);
  for (const [key, entry] of results) {
    console.log(`${key}: ms per case, whole process / beyond its start`);
    console.log(
      `  turnkit ${ms(entry.turnkit, 'whole')} / ${ms(entry.turnkit, 'beyond')}, floor ${ms(entry.floor, 'whole')} / ${ms(entry.floor, 'beyond')}` +
        (promptfoo ? `, promptfoo ${ms(entry.peer, 'whole')} / ${ms(entry.peer, 'beyond')}` : ''),
    );
    if (TIME)
      console.log(
        `  CPU ms per case, whole / beyond start: turnkit ${ms(entry.turnkit, 'cpu')} / ${ms(entry.turnkit, 'cpuBeyond')}, floor ${ms(entry.floor, 'cpu')} / ${ms(entry.floor, 'cpuBeyond')}` +
          (promptfoo ? `, promptfoo ${ms(entry.peer, 'cpu')} / ${ms(entry.peer, 'cpuBeyond')}` : '') +
          (BASE_BIN ? `, before ${ms(entry.base, 'cpu')} / ${ms(entry.base, 'cpuBeyond')}` : ''),
      );
    if (BASE_BIN) {
      const pairs = (part: keyof Sample): string => range(entry.turnkit.map((t, i) => t[part] / entry.base[i]![part]));
      console.log(
        `  after / before (BENCH_BASE_BIN ${ms(entry.base, 'whole')} / ${ms(entry.base, 'beyond')} ms): whole ${pairs('whole')}, beyond start ${pairs('beyond')}` +
          (TIME ? `, CPU ${pairs('cpu')}, CPU beyond start ${pairs('cpuBeyond')}` : ''),
      );
    }
    for (const part of ['whole', 'beyond', ...(TIME ? (['cpu', 'cpuBeyond'] as const) : [])] as const) {
      const against = (other: Sample[]): string => range(entry.turnkit.map((t, i) => t[part] / other[i]![part]));
      const label = {
        whole: 'whole process ',
        beyond: 'beyond start  ',
        cpu: 'CPU           ',
        cpuBeyond: 'CPU beyond st.',
      }[part];
      console.log(
        `  ${label} turnkit / floor ${against(entry.floor)}` +
          (promptfoo
            ? `, turnkit / promptfoo ${against(entry.peer)} (goal: at most ${key.startsWith('postgres') ? '0.9' : '1.0'}x)`
            : ''),
      );
    }
  }
} finally {
  if (adminUrl) await admin(`DROP DATABASE IF EXISTS ${scratchDb} WITH (FORCE)`).catch(() => undefined);
  await rm(work, { recursive: true, force: true });
}
