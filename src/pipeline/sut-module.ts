import pg from 'pg';
import { importModule } from '../util/import-module.js';
import type { SutConfig } from './question-format.js';
import type { SutContext, SutOutcome, SutRequest, SutTools } from './sut-request.js';

/** A module SUT's settings with its path resolved. */
export type ModuleSut = Extract<SutConfig, { type: 'module' }>;

/** What a module SUT's function receives besides the request: its scratch campaign's database, a signal to stop. */
export type ModuleSutTools = SutTools;

/** The function a module SUT exports (or a library caller's function SUT). */
export type ModuleSutFunction = (request: SutRequest, tools: ModuleSutTools) => unknown;

/** Loads a module SUT's function once per run; a missing export is an error naming the file. */
export async function loadModuleSut(sut: ModuleSut): Promise<ModuleSutFunction> {
  const module = await importModule(sut.path);
  // A .ts file outside a "type": "module" package is compiled as CommonJS: its exports arrive one level down.
  const nested = module.default as Record<string, unknown> | undefined;
  const fn =
    typeof module[sut.export] === 'function' || typeof nested !== 'object' || nested === null
      ? module[sut.export]
      : nested[sut.export];
  if (typeof fn !== 'function') throw new Error(`${sut.path}: no function exported as "${sut.export}"`);
  return fn as ModuleSutFunction;
}

/**
 * Calls a module SUT (or a function SUT) for one rep: a string (or `{ response }`) is the answer; a throw or a
 * timeout is an error. The function's signal aborts at its timeout and when turnkit quits.
 */
export async function runModuleSut(
  fn: ModuleSutFunction,
  sut: { timeout: number },
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
    const response = typeof value === 'string' ? value : (value as { response?: unknown } | null)?.response;
    if (typeof response !== 'string')
      return {
        error: { cause: 'unparseable', message: 'the function returned neither a string nor { response: string }' },
        ms: performance.now() - started,
      };
    if (response.trim() === '')
      return {
        error: { cause: 'empty', message: 'the function returned an empty response' },
        ms: performance.now() - started,
      };
    return { response, ms: performance.now() - started };
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

class TimeoutError extends Error {}
