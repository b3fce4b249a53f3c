import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expandEnv, killRunningSuts, type CommandSut } from '../../src/sut/sut-command.js';
import { runCommandSut } from '../../src/sut/sut-command-run.js';
import type { ModuleSut } from '../../src/sut/sut-module.js';
import { callModuleSut, checkModuleSut } from '../../src/sut/sut-module-worker.js';
import type { HttpSut } from '../../src/sut/sut-http.js';
import { httpSutCaller, type HttpSutTools } from '../../src/sut/sut-http-call.js';

const runHttpSut = (sut: HttpSut, context: SutContext, tools?: HttpSutTools) => httpSutCaller(sut, tools)(context);
import { prepareSut } from '../../src/sut/call-sut.js';
import { sutKind } from '../../src/sut/sut-kinds.js';
import { sutSecrets } from '../../src/sut/sut-secrets.js';
import { loadQuestion } from '../../src/question/load-question.js';
import { parseSutOutput } from '../../src/sut/sut-request.js';
import type { SutContext, SutRequest } from '../../src/sut/sut-request.js';
import { TurnkitError } from '../../src/errors.js';

const REQUEST: SutRequest = {
  campaign: '42',
  turn: 23,
  input: { player_input: 'I go to the mess hall. Which way?' },
  caseFile: '# Case: meridian-turn-23\n\n| subject | fact |\n| --- | --- |\n| Mess Hall | deck 2 |\n',
  fixture: 'meridian-turn-23',
  rep: 7,
};
// Nothing listens on port 1: a pool on it can be made but never used.
const CLOSED_URL = 'postgres://turnkit:secret@127.0.0.1:1/nowhere';
// The environment is the test process's, as the command line gives a SUT its own.
const context = (databaseUrl = CLOSED_URL): SutContext => ({ databaseUrl, request: REQUEST, env: process.env });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'turnkit-sut-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Polls until `check` holds or 30 s pass (a bound on a hang, not a speed: the caller's expect says what failed). */
async function until(check: () => boolean): Promise<void> {
  const end = Date.now() + 30_000;
  while (!check() && Date.now() < end) await sleep(20);
}

/** A command SUT running a Node script given as text. */
const nodeSut = (script: string, more: Partial<CommandSut> = {}): CommandSut => ({
  type: 'command',
  command: [process.execPath, '-e', script],
  cwd: dir,
  timeout: 30,
  maxOutput: 131_072,
  ...more,
});
const shSut = (script: string, more: Partial<CommandSut> = {}): CommandSut => ({
  type: 'command',
  command: ['sh', '-c', script],
  cwd: dir,
  timeout: 30,
  maxOutput: 131_072,
  ...more,
});

/** True once a process has exited: no such pid, or (Linux) a zombie waiting for an init that may never reap it. */
function exited(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('command SUT', () => {
  it('gets the request as JSON on stdin, closed, so that a SUT reading to EOF finishes', async () => {
    const outcome = await runCommandSut(
      nodeSut(
        `let text = ''; process.stdin.setEncoding('utf8'); process.stdin.on('data', (c) => (text += c)); process.stdin.on('end', () => process.stdout.write(JSON.stringify({ response: text })));`,
      ),
      context(),
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.exitCode).toBe(0);
    expect(outcome.response).toBe(`${JSON.stringify(REQUEST)}\n`);
    expect(JSON.parse(outcome.response!)).toEqual(REQUEST);
    // The same from a shell: cat waits for EOF.
    const sh = await runCommandSut(shSut('cat > request.json; echo "read $(wc -c < request.json) bytes"'), context());
    expect(sh.response).toBe(`read ${Buffer.byteLength(JSON.stringify(REQUEST)) + 1} bytes`);
    expect(JSON.parse(await readFile(join(dir, 'request.json'), 'utf8'))).toEqual(REQUEST);
  });

  it("inherits none of turnkit's secrets (scrub key, judges' keys), only those its sut.env names", async () => {
    const env = {
      PATH: process.env.PATH,
      TURNKIT_SCRUB_KEY: 'scrub-key-0123456789abcdef',
      ANTHROPIC_API_KEY: 'sk-ant-judge-42',
      OPENAI_API_KEY: 'sk-openai-sut-7',
      GH_PAT: 'github_pat_abcdef',
      LANG_FOR_TEST: 'plain-value',
    };
    const outcome = await runCommandSut(
      shSut('cat > /dev/null; env | sort | grep -E "_KEY|_PAT|LANG_FOR_TEST" | cut -d= -f1 | tr "\\n" " "', {
        env: { OPENAI_API_KEY: '${OPENAI_API_KEY}' },
      }),
      { ...context(), env },
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.response).toBe('LANG_FOR_TEST OPENAI_API_KEY');
  });

  it("runs with the scratch campaign and the rep in its environment, and the question's env with ${NAME} expanded", async () => {
    process.env.TURNKIT_TEST_TOKEN = 'tok-123';
    try {
      const outcome = await runCommandSut(
        nodeSut(
          `const e = process.env; process.stdout.write(JSON.stringify({ response: JSON.stringify([e.DATABASE_URL, e.TURNKIT_CAMPAIGN, e.TURNKIT_TURN, e.TURNKIT_FIXTURE, e.TURNKIT_REP, e.GREETING, e.UNSET_ONE, e.PLAIN, process.cwd()]) }))`,
          {
            env: {
              GREETING: 'hi ${TURNKIT_TEST_TOKEN}!',
              UNSET_ONE: '<${TURNKIT_TEST_NOT_SET_ANYWHERE}>',
              PLAIN: 'as is',
              DATABASE_URL: 'postgres://not-this-one',
            },
          },
        ),
        context('postgres://u@127.0.0.1:5555/scratch'),
      );
      expect(outcome.error).toBeUndefined();
      // turnkit's own variables win over the question's env.
      expect(JSON.parse(outcome.response!)).toEqual([
        'postgres://u@127.0.0.1:5555/scratch',
        '42',
        '23',
        'meridian-turn-23',
        '7',
        'hi tok-123!',
        '<>',
        'as is',
        dir,
      ]);
    } finally {
      delete process.env.TURNKIT_TEST_TOKEN;
    }
    expect(expandEnv({ A: '${HOME}/x', B: '$HOME', C: '${}' }, process.env)).toEqual({
      A: `${process.env.HOME}/x`,
      B: '$HOME',
      C: '${}',
    });
  });

  it('reads plain text (trimmed) or JSON with a string "response"', async () => {
    expect(
      (await runCommandSut(shSut('cat >/dev/null; printf "\\n  You take the lift.  \\n\\n"'), context())).response,
    ).toBe('You take the lift.');
    expect(
      (await runCommandSut(shSut(`cat >/dev/null; echo '{"response": "Deck 2.", "extra": 1}'`), context())).response,
    ).toBe('Deck 2.');
    expect((await runCommandSut(shSut(`cat >/dev/null; echo '{"answer": "Deck 2."}'`), context())).error).toEqual({
      cause: 'unparseable',
      message: 'stdout is JSON without a string "response" field',
    });
    expect((await runCommandSut(shSut(`cat >/dev/null; echo '{not json'`), context())).error?.cause).toBe(
      'unparseable',
    );
    expect((await runCommandSut(shSut('cat >/dev/null; echo "   "'), context())).error).toEqual({
      cause: 'empty',
      message: 'the SUT printed nothing',
    });
    expect(parseSutOutput('[1, 2]')).toEqual({ response: '[1, 2]' });
  });

  it("reads a command SUT's usage and cost from its JSON answer; a malformed one is the rep's error", async () => {
    const answer = '{"response": "Deck 2.", "usage": {"input_tokens": 1003, "output_tokens": 30}, "cost": 0.125}';
    expect(await runCommandSut(shSut(`cat >/dev/null; echo '${answer}'`), context())).toMatchObject({
      response: 'Deck 2.',
      usage: { inputTokens: 1_003, outputTokens: 30 },
      cost: 0.125,
    });
    expect(parseSutOutput('{"response": "x", "cost": -1}')).toEqual({
      error: { cause: 'unparseable', message: 'stdout JSON: "cost" must be a number from 0 to 1000000' },
    });
  });

  it('records a nonzero exit and a signal as errors with the tails of both streams', async () => {
    const failed = await runCommandSut(shSut('cat >/dev/null; echo half an answer; echo boom >&2; exit 4'), context());
    expect(failed).toMatchObject({
      error: { cause: 'exit', message: 'exited with 4: boom' },
      exitCode: 4,
      stdoutTail: 'half an answer\n',
      stderrTail: 'boom\n',
    });
    expect(failed.response).toBeUndefined();
    const killed = await runCommandSut(shSut('cat >/dev/null; kill -9 $$'), context());
    expect(killed).toMatchObject({ error: { cause: 'signal', message: 'killed by SIGKILL' }, signal: 'SIGKILL' });
  });

  it("names why a command SUT exited non-zero: its stderr's last message line, secrets masked, bounded", async () => {
    // Node's crash of a missing package: the error line, then stack frames, the error's fields and `Node.js vNN`.
    const sut = join(dir, 'missing-package.mjs');
    await writeFile(sut, "import 'turnkit-no-such-package';\n");
    const crashed = await runCommandSut({ ...nodeSut(''), command: [process.execPath, sut] }, context());
    expect(crashed.error).toEqual({
      cause: 'exit',
      message: `exited with 1: Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'turnkit-no-such-package' imported from ${sut}`,
    });
    // The database password and the context's secrets never reach the message; a long line is cut near 200.
    const secrets = { ...context(), secrets: ['sk-not-for-messages-77'] };
    const leaky = await runCommandSut(
      shSut(`cat >/dev/null; echo "connect to $DATABASE_URL with sk-not-for-messages-77 failed" >&2; exit 2`),
      secrets,
    );
    expect(leaky.error?.message).toBe(
      'exited with 2: connect to postgres://turnkit:***@127.0.0.1:1/nowhere with *** failed',
    );
    const long = await runCommandSut(shSut(`cat >/dev/null; printf 'x%.0s' $(seq 1 500) >&2; exit 5`), context());
    expect(long.error?.message).toBe(`exited with 5: ${'x'.repeat(199)}…`);
    // Nothing on stderr: the code alone.
    const silent = await runCommandSut(shSut('cat >/dev/null; exit 6'), context());
    expect(silent.error?.message).toBe('exited with 6');
  });

  it('on a timeout kills the whole process group, including a background child', async () => {
    // The child keeps no pipe of turnkit's open, so only a group kill ends it before its 30 s are up.
    const outcome = await runCommandSut(
      // Long enough for a loaded machine's shell to start its child and say so before the timeout.
      shSut('sleep 30 </dev/null >/dev/null 2>&1 & echo "child=$!" >&2; cat >/dev/null; wait', { timeout: 2 }),
      context(),
    );
    expect(outcome.error).toEqual({ cause: 'timeout', message: 'no answer within 2 s' });
    expect(outcome.signal).toBe('SIGTERM');
    const pid = Number(/child=(\d+)/.exec(outcome.stderrTail ?? '')?.[1]);
    expect(pid).toBeGreaterThan(0);
    try {
      // SIGTERM went to the group with the shell's; give the kernel a moment to finish the child's exit.
      await until(() => exited(pid));
      expect(exited(pid), `child ${pid} still running`).toBe(true);
    } finally {
      if (!exited(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('killRunningSuts ends every SUT running now with what it started, and forgets the ones that finished', async () => {
    expect(killRunningSuts()).toBe(0);
    await runCommandSut(shSut('cat >/dev/null; echo done'), context());
    // A finished SUT is not counted.
    expect(killRunningSuts()).toBe(0);
    const pidFile = join(dir, 'running-child.pid');
    const running = runCommandSut(
      shSut(`cat >/dev/null; sleep 300 </dev/null >/dev/null 2>&1 & echo $! > ${pidFile}; wait`),
      context(),
    );
    let child = 0;
    await until(() => {
      child = Number(readFileSync(pidFile, { encoding: 'utf8', flag: 'a+' }).trim());
      return child > 0;
    });
    expect(child).toBeGreaterThan(0);
    try {
      expect(killRunningSuts()).toBe(1);
      expect(await running).toMatchObject({
        error: { cause: 'signal', message: 'killed by SIGKILL' },
        signal: 'SIGKILL',
      });
      await until(() => exited(child));
      expect(exited(child), `child ${child} still running`).toBe(true);
    } finally {
      if (!exited(child)) process.kill(child, 'SIGKILL');
    }
  });

  it('does not wait for a grandchild that left the group and holds stdout open: the bound is hard', async () => {
    // The SUT answers and exits; a detached sleeper keeps the pipe. Waiting for it would take 300 s (past the test's
    // own timeout), so this test fails on a soft bound and passes when the answer is taken once the SUT has exited.
    const sleepers: number[] = [];
    try {
      const answered = await runCommandSut(
        shSut('cat >/dev/null; setsid sleep 300 & echo "sleeper $!" >&2; echo answer'),
        context(),
      );
      sleepers.push(Number(/sleeper (\d+)/.exec(answered.stderrTail ?? '')?.[1]));
      expect(answered).toMatchObject({ response: 'answer', exitCode: 0 });
      // Same sleeper, and the SUT itself never answers: a timeout, not a hang.
      const hung = await runCommandSut(
        { ...shSut('cat >/dev/null; setsid sleep 300 & echo "sleeper $!" >&2; sleep 300'), timeout: 1 },
        context(),
      );
      sleepers.push(Number(/sleeper (\d+)/.exec(hung.stderrTail ?? '')?.[1]));
      expect(hung.error).toEqual({ cause: 'timeout', message: 'no answer within 1 s' });
    } finally {
      // Outside the SUT's group, so not turnkit's to kill: the test cleans up after itself.
      for (const pid of sleepers)
        if (pid > 0)
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            /* gone */
          }
    }
  });

  it('keeps the end of stderr, bounded to maxOutput, without failing the rep', async () => {
    const outcome = await runCommandSut(
      nodeSut(`process.stderr.write('a'.repeat(5000) + 'b'.repeat(500) + 'THE-END'); process.stdout.write('fine');`, {
        maxOutput: 1000,
      }),
      context(),
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.response).toBe('fine');
    expect(outcome.stderrTail).toBe(`${'a'.repeat(493)}${'b'.repeat(500)}THE-END`);
  });

  it('stops a SUT whose stdout passes maxOutput', async () => {
    const outcome = await runCommandSut(
      nodeSut(`process.stdout.write('x'.repeat(4096)); setTimeout(() => {}, 20000);`, { maxOutput: 1000 }),
      context(),
    );
    expect(outcome.error).toEqual({ cause: 'output-too-large', message: 'stdout passed 1000 bytes' });
  });

  it('gives cause spawn for a program that does not exist', async () => {
    const outcome = await runCommandSut(
      { type: 'command', command: 'turnkit-no-such-program --flag', cwd: dir, timeout: 5, maxOutput: 1000 },
      context(),
    );
    expect(outcome.error).toEqual({ cause: 'spawn', message: 'turnkit-no-such-program: command not found' });
    expect(outcome.response).toBeUndefined();
  });
});

describe('module SUT', () => {
  const writeModule = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  const moduleSut = (path: string, more: Partial<ModuleSut> = {}): ModuleSut => ({
    type: 'module',
    path,
    export: 'default',
    timeout: 5,
    maxOutput: 131_072,
    ...more,
  });
  const run = async (name: string, text: string, more: Partial<ModuleSut> = {}, ctx = context()) => {
    const sut = moduleSut(await writeModule(name, text), more);
    await checkModuleSut(sut);
    return callModuleSut(sut, ctx);
  };

  it('takes a string or { response } as the answer and passes the request', async () => {
    expect(
      await run(
        'string.mjs',
        'export default (request) => `turn ${request.turn} of ${request.campaign}, rep ${request.rep}: ${request.input.player_input}`;',
      ),
    ).toMatchObject({
      response: 'turn 23 of 42, rep 7: I go to the mess hall. Which way?',
    });
    const object = await run(
      'object.mjs',
      'export async function play(request) { return { response: request.caseFile, other: 1 }; }',
      { export: 'play' },
    );
    expect(object.error).toBeUndefined();
    expect(object.response).toBe(REQUEST.caseFile);
    expect(object.ms).toBeGreaterThanOrEqual(0);
  });

  it('loads a TypeScript module, types stripped', async () => {
    // In an ES module package.
    await mkdir(join(dir, 'esm'), { recursive: true });
    await writeFile(join(dir, 'esm', 'package.json'), '{ "type": "module" }\n');
    const outcome = await run(
      'esm/typed.ts',
      'interface R { turn: number }\nexport default function (request: R): string { const n: number = request.turn + 1; return `next ${n}`; }\n',
    );
    expect(outcome.response).toBe('next 24');
    // Outside an ES module package tsx compiles it as CommonJS: the default export is still found.
    const plain = await run(
      'plain-typed.ts',
      'export default function (request: { turn: number }): string { return `plain ${request.turn}`; }\n',
    );
    expect(plain.response).toBe('plain 23');
    // A named export works wherever the file is.
    const named = await run(
      'named-typed.ts',
      'export function play(request: { rep: number }): string { return `rep ${request.rep}`; }\n',
      { export: 'play' },
    );
    expect(named.response).toBe('rep 7');
  });

  it('turns a throw, a non-string, an empty answer and a hang into error causes', async () => {
    expect((await run('throws.mjs', 'export default () => { throw new Error("no map of deck 2"); };')).error).toEqual({
      cause: 'exception',
      message: 'no map of deck 2',
    });
    expect((await run('rejects.mjs', 'export default async () => { throw new Error("async boom"); };')).error).toEqual({
      cause: 'exception',
      message: 'async boom',
    });
    expect((await run('number.mjs', 'export default () => 42;')).error?.cause).toBe('unparseable');
    expect((await run('wrong-field.mjs', 'export default () => ({ response: 42 });')).error?.cause).toBe('unparseable');
    expect((await run('null.mjs', 'export default () => null;')).error?.cause).toBe('unparseable');
    expect((await run('empty.mjs', 'export default () => "  ";')).error?.cause).toBe('empty');
    // The timeout also bounds the worker's loading of the module (checkModuleSut): 2 s leaves a loaded machine time
    // to start a worker thread, which 0.2 s did not.
    const hang = await run('hangs.mjs', 'export default () => new Promise(() => {});', { timeout: 2 });
    expect(hang.error).toEqual({ cause: 'timeout', message: 'no answer within 2 s' });
    expect(hang.response).toBeUndefined();
  });

  it("stops a busy loop at the timeout, and takes process.exit() as the rep's error, not turnkit's exit", async () => {
    const busy = await run('busy.mjs', 'export default () => { for (;;) {} };', { timeout: 0.5 });
    expect(busy.error).toEqual({ cause: 'timeout', message: 'no answer within 0.5 s' });
    const exits = await run('exits.mjs', 'export default () => { console.log("leaving"); process.exit(0); };');
    expect(exits.error).toEqual({ cause: 'exit', message: 'the module ended its process (exit code 0)' });
    expect(exits.stdoutTail).toBe('leaving\n');
    // This process is still here to say so, and a later call runs as ever.
    expect((await run('after.mjs', 'export default () => "still here";')).response).toBe('still here');
  });

  it('bounds the response at maxOutput, and keeps what the module logged as its output tails', async () => {
    const big = await run('big.mjs', 'export default () => "x".repeat(2000);', { maxOutput: 1000 });
    expect(big.error).toEqual({ cause: 'output-too-large', message: 'the response passed 1000 bytes' });
    expect(big.response).toBeUndefined();
    const logs = await run('logs.mjs', 'export default () => { console.error("warn"); return "fine"; };');
    expect(logs).toMatchObject({ response: 'fine', stderrTail: 'warn\n' });
  });

  it("counts the timeout from the worker thread's start, not from asking for it: a slow boot is not the module's", async () => {
    const sut = moduleSut(await writeModule('quick.mjs', 'export default () => "quick";'), { timeout: 0.5 });
    // This thread is busy past the timeout while the worker boots (as on a loaded machine): a timer started when the
    // worker was asked for fires first; the module itself loads and answers at once.
    const spin = (ms: number): void => {
      const until = performance.now() + ms;
      while (performance.now() < until) {}
    };
    const checked = checkModuleSut(sut);
    spin(1_500);
    await expect(checked).resolves.toBeUndefined();
    const called = callModuleSut(sut, context());
    spin(1_500);
    expect((await called).response).toBe('quick');
    // A module that never finishes loading is still stopped at its timeout.
    const stuck = moduleSut(await writeModule('stuck.mjs', 'for (;;) {}\nexport default () => "never";'), {
      timeout: 0.5,
    });
    await expect(checkModuleSut(stuck)).rejects.toThrow(`${stuck.path}: did not finish loading within 0.5 s`);
  });

  it('refuses a module without the export it names', async () => {
    const sut = moduleSut(await writeModule('named.mjs', 'export const other = () => "x";'), { export: 'play' });
    await expect(checkModuleSut(sut)).rejects.toThrow(`${sut.path}: no function exported as "play"`);
    await expect(checkModuleSut({ ...sut, export: 'other' })).resolves.toBeUndefined();
  });

  it("gets a pg Pool on the scratch campaign's database and its URL", async () => {
    const url = process.env.TEST_DATABASE_URL;
    const text = url
      ? `export default async (request, tools) => { const r = await tools.db.query('SELECT 1 AS one'); return 'one=' + r.rows[0].one + ' ' + tools.databaseUrl; };`
      : `export default (request, tools) => typeof tools.db.query + ' ' + tools.databaseUrl + ' ' + tools.signal.aborted;`;
    const outcome = await run(url ? 'pool-query.mjs' : 'pool.mjs', text, {}, context(url ?? CLOSED_URL));
    expect(outcome.error).toBeUndefined();
    expect(outcome.response).toBe(url ? `one=1 ${url}` : `function ${CLOSED_URL} false`);
  });
});

describe('http SUT (OpenAI-compatible)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (server) {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
      server = undefined;
    }
  });

  /** A fake chat endpoint on 127.0.0.1; returns its base URL and what it received. */
  const serve = async (
    handler: (request: IncomingMessage, body: string, response: ServerResponse) => void,
  ): Promise<{
    baseUrl: string;
    seen: { url?: string; method?: string; headers?: IncomingMessage['headers']; body?: unknown }[];
  }> => {
    const seen: { url?: string; method?: string; headers?: IncomingMessage['headers']; body?: unknown }[] = [];
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        seen.push({ url: request.url, method: request.method, headers: request.headers, body: JSON.parse(body) });
        handler(request, body, response);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`, seen };
  };
  const answer =
    (status: number, body: string) => (_request: IncomingMessage, _body: string, response: ServerResponse) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    };
  const httpSut = (baseUrl: string, more: Partial<HttpSut> = {}): HttpSut => ({
    type: 'http',
    baseUrl,
    model: 'gm-small',
    timeout: 5,
    retries: 0,
    maxOutput: 131_072,
    ...more,
  });

  it("sends a base URL's user info and query where they belong, and keeps them out of messages and the manifest", async () => {
    const { baseUrl, seen } = await serve(answer(500, '{"error":{"message":"down"}}'));
    const address = new URL(baseUrl);
    const withCredentials = `http://gm-user:pw-S3CRET-9@${address.host}/v1?api-key=KEY-S3CRET-123&api-version=7`;
    const sut = httpSut(withCredentials);
    const outcome = await runHttpSut(sut, context());
    // The path before the query; the user info as Basic authorization; the query as it was.
    expect(seen[0]!.url).toBe('/v1/chat/completions?api-key=KEY-S3CRET-123&api-version=7');
    expect(seen[0]!.headers?.authorization).toBe(`Basic ${Buffer.from('gm-user:pw-S3CRET-9').toString('base64')}`);
    expect(outcome.error).toEqual({
      cause: 'http',
      message: `http://${address.host}/v1/chat/completions answered 500 (1 attempt)`,
    });
    expect(sutKind(sut).describe(sut)).toMatchObject({ baseUrl: `http://${address.host}/v1` });
    expect(JSON.stringify(sutKind(sut).describe(sut))).not.toMatch(/S3CRET|gm-user/);
    expect(sutSecrets(sut, {})).toEqual(expect.arrayContaining(['gm-user', 'pw-S3CRET-9', 'KEY-S3CRET-123']));
    expect(sutSecrets(sut, {})).not.toContain('7');
  });

  it("refuses an http answer's negative or absurd usage figures as the rep's error, not a count or a silent zero", async () => {
    for (const usage of [
      { prompt_tokens: -3, completion_tokens: 2 },
      { prompt_tokens: 10, completion_tokens: 1e300 },
    ]) {
      const { baseUrl } = await serve(
        answer(200, JSON.stringify({ choices: [{ message: { content: 'ok' } }], usage })),
      );
      const outcome = await runHttpSut(httpSut(baseUrl), context());
      expect(outcome.error).toEqual({
        cause: 'unparseable',
        message: `${baseUrl.replace(/\/+$/, '')}/chat/completions answered with usage figures that are not whole numbers from 0 to 1000000000`,
      });
      expect(outcome.usage).toBeUndefined();
      server!.closeAllConnections();
      server!.close();
    }
    const { baseUrl } = await serve(
      answer(
        200,
        JSON.stringify({
          choices: [{ message: { content: 'ok' } }],
          usage: { prompt_tokens: 7, completion_tokens: 2 },
        }),
      ),
    );
    expect(await runHttpSut(httpSut(baseUrl), context())).toMatchObject({
      response: 'ok',
      usage: { inputTokens: 7, outputTokens: 2 },
    });
  });

  it('bounds the answer at maxOutput, and reads a huge body no further than the bound', async () => {
    const content = 'x'.repeat(2_000);
    let { baseUrl } = await serve(answer(200, JSON.stringify({ choices: [{ message: { content } }] })));
    const long = await runHttpSut(httpSut(baseUrl, { maxOutput: 1_000 }), context());
    expect(long.error).toEqual({ cause: 'output-too-large', message: 'the response passed 1000 bytes' });
    expect(long.response).toBeUndefined();
    expect((await runHttpSut(httpSut(baseUrl, { maxOutput: 2_000 }), context())).response).toBe(content);
    server!.closeAllConnections();
    server!.close();
    // 20 MB of body, sent as it is asked for: the reader stops at 6 x 1000 + 64 KiB bytes.
    let sent = 0;
    ({ baseUrl } = await serve((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"choices":[{"message":{"content":"');
      const chunk = 'y'.repeat(65_536);
      const more = (): void => {
        while (sent < 20_000_000) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end('"}}]}');
      };
      more();
    }));
    const huge = await runHttpSut(httpSut(baseUrl, { maxOutput: 1_000 }), context());
    expect(huge.error).toEqual({
      cause: 'output-too-large',
      message: `${baseUrl.replace(/\/+$/, '')}/chat/completions: the answer passed ${6 * 1_000 + 65_536} bytes`,
    });
    expect(sent).toBeLessThan(20_000_000);
  });

  it('posts the system prompt, the case file and the input, the temperature and the key from apiKeyEnv', async () => {
    const { baseUrl, seen } = await serve(
      answer(
        200,
        JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Take the lift to deck 2.' } }] }),
      ),
    );
    const outcome = await runHttpSut(
      httpSut(baseUrl, { apiKeyEnv: 'TURNKIT_TEST_API_KEY', system: 'You are the game master.', temperature: 0.3 }),
      context(),
      { apiKey: 'sk-test-abc' },
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.response).toBe('Take the lift to deck 2.');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url).toBe('/v1/chat/completions');
    expect(seen[0]!.headers!.authorization).toBe('Bearer sk-test-abc');
    expect(seen[0]!.headers!['content-type']).toBe('application/json');
    expect(seen[0]!.body).toEqual({
      model: 'gm-small',
      messages: [
        { role: 'system', content: 'You are the game master.' },
        {
          role: 'user',
          content: `${REQUEST.caseFile}\n\n---\n\nPlayer input for turn 23:\nI go to the mess hall. Which way?`,
        },
      ],
      temperature: 0.3,
    });
    // The key goes nowhere but the header.
    expect(JSON.stringify(seen[0]!.body)).not.toContain('sk-test-abc');
  });

  it('sends no Authorization header, system message or temperature when the question has none', async () => {
    const { baseUrl, seen } = await serve(answer(200, JSON.stringify({ choices: [{ message: { content: 'ok' } }] })));
    const outcome = await runHttpSut(httpSut(baseUrl.replace(/\/$/, '')), context());
    expect(outcome.response).toBe('ok');
    expect(seen[0]!.headers!.authorization).toBeUndefined();
    expect(seen[0]!.body).toEqual({
      model: 'gm-small',
      messages: [
        {
          role: 'user',
          content: `${REQUEST.caseFile}\n\n---\n\nPlayer input for turn 23:\nI go to the mess hall. Which way?`,
        },
      ],
    });
  });

  it("makes a 500 an http error naming the status, with the body's tail", async () => {
    const { baseUrl } = await serve(answer(500, '{"error": "model overloaded"}'));
    const outcome = await runHttpSut(httpSut(baseUrl), context());
    expect(outcome.error?.cause).toBe('http');
    expect(outcome.error?.message).toContain('500');
    expect(outcome.error?.message).toContain('/v1/chat/completions');
    // The SDK keeps the body's "error" field.
    expect(outcome.stdoutTail).toBe('"model overloaded"');
    expect(outcome.response).toBeUndefined();
  });

  it('makes a body that is not JSON, or JSON without choices, unparseable', async () => {
    let { baseUrl } = await serve(answer(200, '<html>gateway</html>'));
    let outcome = await runHttpSut(httpSut(baseUrl), context());
    expect(outcome.error?.cause).toBe('unparseable');
    expect(outcome.error?.message).toContain('answered with a body that is not JSON');
    expect(outcome.error?.message).toContain('<html>gateway');
    for (const body of [
      '{"id": "x"}',
      '{"choices": []}',
      '{"choices": [{"message": {"content": null}}]}',
      '{"choices": [{"message": {"content": "  "}}]}',
    ]) {
      server!.closeAllConnections();
      server!.close();
      await once(server!, 'close');
      ({ baseUrl } = await serve(answer(200, body)));
      outcome = await runHttpSut(httpSut(baseUrl), context());
      expect(outcome.error?.cause, body).toBe('unparseable');
      expect(outcome.error?.message, body).toContain('choices[0].message.content');
    }
  });

  it('times out on a server that never answers', async () => {
    const { baseUrl } = await serve(() => {});
    const outcome = await runHttpSut(httpSut(baseUrl, { timeout: 0.2 }), context());
    expect(outcome.error).toEqual({ cause: 'timeout', message: 'no answer within 0.2 s (1 attempt)' });
  });

  it('makes a refused connection an http error', async () => {
    const outcome = await runHttpSut(httpSut('http://127.0.0.1:1/v1'), context());
    expect(outcome.error?.cause).toBe('http');
    expect(outcome.error?.message).toMatch(/^http:\/\/127\.0\.0\.1:1\/v1\/chat\/completions: /);
  });
});

describe('prepareSut', () => {
  let n = 0;
  /** Loads a question whose sut is given as YAML lines (starting on line 9), in a project at `dir`. */
  const question = async (sutLines: string[]) => {
    const path = join(dir, `question-${++n}.yaml`);
    const lines = [
      'id: q',
      'question: q?',
      'rubric: { path: r.md, version: 1 }',
      'target: 0.9',
      'reps: 1',
      'fixtures: [f.json]',
      'caseFile: c.md',
      'sut:',
      ...sutLines.map((line) => `  ${line}`),
    ];
    await writeFile(path, `${lines.join('\n')}\n`);
    return { loaded: await loadQuestion(path), shown: relative(process.cwd(), path) };
  };
  const refusal = async (sutLines: string[]): Promise<{ error: TurnkitError; shown: string }> => {
    const { loaded, shown } = await question(sutLines);
    const error = await prepareSut(loaded, dir, process.env).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TurnkitError);
    return { error: error as TurnkitError, shown };
  };

  it('refuses a command that is not on PATH, or a relative program that does not exist', async () => {
    let { error, shown } = await refusal(['type: command', 'command: [turnkit-no-such-program, --x]']);
    expect(error.message).toBe(`${shown}:10:12: $.sut.command: turnkit-no-such-program: command not found`);
    ({ error, shown } = await refusal(['type: command', 'command: ./missing.sh']));
    expect(error.message).toBe(`${shown}:10:12: $.sut.command: ./missing.sh: command not found`);
    // A folder is not a program.
    await mkdir(join(dir, 'a-folder'), { recursive: true });
    ({ error, shown } = await refusal(['type: command', 'command: ./a-folder']));
    expect(error.message).toBe(`${shown}:10:12: $.sut.command: ./a-folder: command not found`);
  });

  it('refuses a module file that is missing, and one without the export', async () => {
    let { error, shown } = await refusal(['type: module', 'path: gone.mjs']);
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe(`${shown}:10:9: $.sut.path: gone.mjs: no such file`);
    await writeFile(join(dir, 'exports.mjs'), 'export const other = () => "x";\n');
    ({ error, shown } = await refusal(['type: module', 'path: exports.mjs', 'export: play']));
    expect(error.message).toBe(
      `${shown}:11:11: $.sut.export: ${join(dir, 'exports.mjs')}: no function exported as "play"`,
    );
    // No default export, and "export" left to its default: the place is the sut entry.
    ({ error, shown } = await refusal(['type: module', 'path: exports.mjs']));
    expect(error.message).toBe(
      `${shown}:9:3: $.sut.export: ${join(dir, 'exports.mjs')}: no function exported as "default"`,
    );
  });

  it('refuses an API key variable that is not set', async () => {
    delete process.env.TURNKIT_TEST_UNSET_KEY;
    const { error, shown } = await refusal([
      'type: http',
      'baseUrl: http://127.0.0.1:1/v1',
      'model: m',
      'apiKeyEnv: TURNKIT_TEST_UNSET_KEY',
    ]);
    expect(error.message).toBe(
      `${shown}:12:14: $.sut.apiKeyEnv: the environment variable TURNKIT_TEST_UNSET_KEY is not set`,
    );
  });

  it('returns a caller that runs a relative command in the project folder', async () => {
    await writeFile(join(dir, 'answer.sh'), '#!/bin/sh\ncat >/dev/null\necho "rep $TURNKIT_REP in $(pwd)"\n');
    await chmod(join(dir, 'answer.sh'), 0o755);
    const { loaded } = await question(['type: command', 'command: ./answer.sh']);
    const call = await prepareSut(loaded, dir, process.env);
    expect((await call(context())).response).toBe(`rep 7 in ${dir}`);
  });
});
