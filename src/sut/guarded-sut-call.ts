import type { SutCaller } from './call-sut.js';
import type { SutContext, SutOutcome } from './sut-request.js';

/**
 * One call of the SUT that never throws: an adapter that throws (a spawn refused outright) is the call's error like
 * any other SUT failure, with the time it took to throw (latency counts every call that reached the SUT). A one-turn
 * rep and each turn of a rollout call the SUT through it.
 */
export function guardedSutCall(callSut: SutCaller, context: SutContext): () => Promise<SutOutcome> {
  return async () => {
    const started = performance.now();
    try {
      return await callSut(context);
    } catch (error) {
      return { error: { cause: 'exception', message: firstLine(error) }, ms: performance.now() - started };
    }
  };
}

/** An error's first line, as a rep's record keeps it. */
export function firstLine(error: unknown): string {
  return (error as Error)?.message?.split('\n')[0] ?? String(error);
}
