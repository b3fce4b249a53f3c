import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { recordedTail, type SutContext, type SutOutcome, type SutRequest } from './sut-request.js';
import { answerSpend } from './sut-answer.js';
import { answerToolCalls } from './sut-tool-calls.js';
import type { ModuleSut, ModuleSutFunction } from './sut-module.js';

// A module SUT's calls (and a function SUT's), loaded only when a SUT of those kinds is opened.

// What the worker needs to import, resolved here (the worker's own code has no folder to resolve them from), and
// only when a worker starts: a module runner that lacks import.meta.resolve (vitest's) must still load this file.
let resolved: { tsx: string; pg: string } | undefined;
function workerImports(): { tsx: string; pg: string } {
  if (resolved) return resolved;
  const resolve = (specifier: string): string => {
    try {
      return import.meta.resolve(specifier);
    } catch {
      return pathToFileURL(createRequire(import.meta.url).resolve(specifier)).href;
    }
  };
  resolved = { tsx: resolve('tsx/esm/api'), pg: resolve('pg') };
  return resolved;
}

/**
 * Checks, before any rep runs, that a module SUT's file loads and has the export (in a worker thread, as the reps
 * call it, so that a module that never finishes loading is stopped at its timeout); the error names the file.
 */
export async function checkModuleSut(sut: ModuleSut): Promise<void> {
  const result = await inWorker(sut, { mode: 'check' }, undefined);
  if (result.kind === 'found') return;
  if (result.kind === 'missing') throw new Error(`${sut.path}: no function exported as "${sut.export}"`);
  if (result.kind === 'timeout') throw new Error(`${sut.path}: did not finish loading within ${sut.timeout} s`);
  if (result.kind === 'exited')
    throw new Error(`${sut.path}: ended its process (exit code ${result.code}) while loading`);
  throw new Error(`${sut.path}: ${'message' in result ? result.message : result.kind}`);
}

/**
 * Calls a module SUT for one rep in a worker thread of its own: a timeout or turnkit quitting terminates it (a
 * function that never returns, even a busy loop, is stopped), and a module that ends its process ends only the worker,
 * which is the rep's error. What it logs is kept as the rep's output tails, bounded like a command SUT's.
 */
export async function callModuleSut(sut: ModuleSut, context: SutContext): Promise<SutOutcome> {
  const started = performance.now();
  const result = await inWorker(
    sut,
    { mode: 'call', request: context.request, databaseUrl: context.databaseUrl },
    context.quit,
  );
  const tails = { stdoutTail: recordedTail(result.stdout, context), stderrTail: recordedTail(result.stderr, context) };
  const ms = (): number => performance.now() - started;
  const failed = (cause: NonNullable<SutOutcome['error']>['cause'], message: string): SutOutcome => ({
    error: { cause, message },
    ...tails,
    ms: ms(),
  });
  switch (result.kind) {
    case 'value':
      return { ...outcomeOf(result.value, sut.maxOutput, ms), ...tails };
    case 'too-large':
      return failed('output-too-large', `the response passed ${sut.maxOutput} bytes`);
    case 'throw':
    case 'load-failed':
    case 'crashed':
      return failed('exception', result.message);
    case 'exited':
      return failed('exit', `the module ended its process (exit code ${result.code})`);
    case 'timeout':
      return failed('timeout', `no answer within ${sut.timeout} s`);
    case 'quit':
      return failed('signal', 'killed: turnkit quit');
    default:
      return failed('exception', `the module's worker said ${result.kind}`);
  }
}

/**
 * Calls a function SUT (a library caller's own function, which cannot leave this thread) for one rep: a string (or
 * `{ response, usage?, cost? }`) is the answer; a throw or a timeout is an error. The function's signal aborts at its
 * timeout and when turnkit quits.
 */
export async function runModuleSut(
  fn: ModuleSutFunction,
  sut: { timeout: number; maxOutput: number },
  context: SutContext,
): Promise<SutOutcome> {
  const started = performance.now();
  const db = new pg.Pool({ connectionString: context.databaseUrl, max: 2 });
  db.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  const stop = new AbortController();
  const onQuit = (): void => stop.abort(context.quit?.reason);
  context.quit?.addEventListener('abort', onQuit, { once: true });
  try {
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const error = new TimeoutError(`no answer within ${sut.timeout} s`);
        stop.abort(error);
        reject(error);
      }, sut.timeout * 1_000);
    });
    const value = await Promise.race([
      Promise.resolve(fn(context.request, { db, databaseUrl: context.databaseUrl, signal: stop.signal })),
      timeout,
    ]);
    return outcomeOf(value, sut.maxOutput, () => performance.now() - started);
  } catch (error) {
    const cause = error instanceof TimeoutError ? 'timeout' : 'exception';
    return { error: { cause, message: (error as Error)?.message ?? String(error) }, ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
    context.quit?.removeEventListener('abort', onQuit);
    // A function that timed out may still hold a client: closing the pool then never ends, so do not wait long.
    await Promise.race([db.end().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
  }
}

// A function's answer as a rep's outcome: the same rules in this thread and from a worker.
function outcomeOf(value: unknown, maxOutput: number, ms: () => number): SutOutcome {
  const response = typeof value === 'string' ? value : (value as { response?: unknown } | null)?.response;
  if (typeof response !== 'string')
    return {
      error: { cause: 'unparseable', message: 'the function returned neither a string nor { response: string }' },
      ms: ms(),
    };
  if (response.trim() === '')
    return { error: { cause: 'empty', message: 'the function returned an empty response' }, ms: ms() };
  if (Buffer.byteLength(response) > maxOutput)
    return { error: { cause: 'output-too-large', message: `the response passed ${maxOutput} bytes` }, ms: ms() };
  const spend = typeof value === 'string' ? {} : answerSpend(value);
  if ('error' in spend)
    return { error: { cause: 'unparseable', message: `the function's answer: ${spend.error}` }, ms: ms() };
  const tools = typeof value === 'string' ? {} : answerToolCalls(value);
  if ('error' in tools)
    return { error: { cause: 'unparseable', message: `the function's answer: ${tools.error}` }, ms: ms() };
  return { response, ...spend, ...tools, ms: ms() };
}

type WorkerResult = { stdout: string; stderr: string } & (
  | { kind: 'found' | 'missing' | 'too-large' | 'timeout' | 'quit' }
  | { kind: 'value'; value: unknown }
  | { kind: 'throw' | 'load-failed' | 'crashed'; message: string }
  | { kind: 'exited'; code: number }
);

// One worker, its output kept (bounded), until it answers, exits, crashes, times out or turnkit quits.
function inWorker(
  sut: ModuleSut,
  task: { mode: 'check' } | { mode: 'call'; request: SutRequest; databaseUrl: string },
  quit: AbortSignal | undefined,
): Promise<WorkerResult> {
  return new Promise((resolve) => {
    const worker = new Worker(MODULE_SUT_WORKER, {
      eval: true,
      workerData: { ...task, path: sut.path, export: sut.export, ...workerImports(), maxOutput: sut.maxOutput },
      stdout: true,
      stderr: true,
    });
    let stdout = '';
    let stderr = '';
    worker.stdout.setEncoding('utf8');
    worker.stderr.setEncoding('utf8');
    // A log, not the answer: its end is kept, never more than the SUT's bound.
    worker.stdout.on('data', (chunk: string) => (stdout = (stdout + chunk).slice(-sut.maxOutput)));
    worker.stderr.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-sut.maxOutput)));
    let settled = false;
    const settle = (result: Record<string, unknown> & { kind: WorkerResult['kind'] }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      quit?.removeEventListener('abort', onQuit);
      // The worker goes in every case: one that answered may still hold timers or sockets of the module's.
      void worker.terminate().finally(() => resolve({ ...result, stdout, stderr } as WorkerResult));
    };
    // The timeout counts from the worker's first statement (its 'started'), not from creating it: a thread that
    // takes longer than a short timeout to boot on a loaded machine is not the module's fault. Booting has a
    // bound of its own, so a thread that never starts still ends the call.
    const expire = (): void => {
      worker.postMessage('abort');
      settle({ kind: 'timeout' });
    };
    let timer = setTimeout(() => {
      settle({ kind: 'crashed', message: `its worker thread did not start within ${WORKER_START_LIMIT_S} s` });
    }, WORKER_START_LIMIT_S * 1_000);
    const onQuit = (): void => settle({ kind: 'quit' });
    if (quit?.aborted) onQuit();
    else quit?.addEventListener('abort', onQuit, { once: true });
    worker.on('message', (message: Record<string, unknown> & { kind: WorkerResult['kind'] | 'started' }) => {
      if (message.kind !== 'started')
        return settle(message as Record<string, unknown> & { kind: WorkerResult['kind'] });
      if (settled) return;
      clearTimeout(timer);
      timer = setTimeout(expire, sut.timeout * 1_000);
    });
    worker.on('error', (error) => settle({ kind: 'crashed', message: error?.message ?? String(error) }));
    worker.on('exit', (code) => settle({ kind: 'exited', code }));
  });
}

class TimeoutError extends Error {}

// How long a module SUT's worker thread may take to boot before the call fails (its own timeout starts after).
const WORKER_START_LIMIT_S = 60;

/**
 * The code of the worker thread a module SUT runs in, one worker per call: it imports the module (TypeScript through
 * tsx), finds the export, and either says whether it is there (`check`) or calls it with a pool on the scratch
 * campaign's database and posts what it returned. Plain CommonJS source, so that it runs the same from the sources
 * (tests) and from dist/; the modules it needs come as resolved URLs in its workerData.
 */
const MODULE_SUT_WORKER = String.raw`
const { workerData, parentPort } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const data = workerData;
const stop = new AbortController();
parentPort.on('message', (message) => { if (message === 'abort') stop.abort(new Error('the rep is over')); });
// The SUT's timeout runs from here: starting a thread is turnkit's cost, which a loaded machine can make seconds.
parentPort.postMessage({ kind: 'started' });
async function load() {
  const url = pathToFileURL(data.path).href;
  if (/\.(c|m)?ts$/.test(data.path)) {
    const { tsImport } = await import(data.tsx);
    return tsImport(url, data.tsx);
  }
  return import(url);
}
function exported(module) {
  // A .ts file outside a "type": "module" package is compiled as CommonJS: its exports arrive one level down.
  const nested = module.default;
  const fn = typeof module[data.export] === 'function' || typeof nested !== 'object' || nested === null
    ? module[data.export] : nested[data.export];
  return typeof fn === 'function' ? fn : undefined;
}
function answer(value) {
  // Only what turnkit reads of the answer crosses to it, as plain data (a class instance or a function would not).
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || typeof value.response !== 'string') return { notAnswer: true };
  const out = { response: value.response };
  if (value.usage !== undefined) {
    try { out.usage = JSON.parse(JSON.stringify(value.usage)); } catch { out.usage = 'unreadable'; }
  }
  if (value.cost !== undefined) out.cost = typeof value.cost === 'number' ? value.cost : String(value.cost);
  if (value.toolCalls !== undefined && value.toolCalls !== null) {
    // As JSON holds it: turnkit checks the shape on its side (sut-tool-calls.ts).
    try { out.toolCalls = JSON.parse(JSON.stringify(value.toolCalls)); } catch { out.toolCalls = 'unreadable'; }
  }
  return out;
}
(async () => {
  let module;
  try {
    module = await load();
  } catch (error) {
    parentPort.postMessage({ kind: 'load-failed', message: String((error && error.message) || error) });
    return;
  }
  const fn = exported(module);
  if (!fn) return parentPort.postMessage({ kind: 'missing' });
  if (data.mode === 'check') return parentPort.postMessage({ kind: 'found' });
  const pg = (await import(data.pg)).default;
  const db = new pg.Pool({ connectionString: data.databaseUrl, max: 2 });
  db.on('error', () => {});
  let message;
  try {
    const value = answer(await fn(data.request, { db, databaseUrl: data.databaseUrl, signal: stop.signal }));
    const response = typeof value === 'string' ? value : value.response;
    // A huge answer is not copied across to turnkit: its size is all that is said.
    if (typeof response === 'string' && Buffer.byteLength(response) > data.maxOutput)
      message = { kind: 'too-large' };
    else message = { kind: 'value', value };
  } catch (error) {
    message = { kind: 'throw', message: String((error && error.message) || error) };
  }
  await Promise.race([db.end().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  parentPort.postMessage(message);
})();
`;
