import { setFlagsFromString } from 'node:v8';

/**
 * The embedded database is PGlite, Postgres compiled to WebAssembly. V8 runs its functions with a fast baseline
 * compiler and recompiles the hot ones with its optimizing compiler; with the default budget nearly every function a
 * command touches is hot at once, and that recompiling cost a short command (a capture, a run of a few reps, the
 * demo) as much CPU as its database work: `turnkit run` of 4 reps took 2.9 s of CPU, 1.7 s with a budget 100 times
 * the default, and long runs still reach the optimized code for their hot functions (the same speed after some
 * seconds of database work). Set by the binary before PGlite loads; the library leaves the process's flags alone.
 * Only for the Node versions known to have the flag: another would print "unrecognized flag" on every command.
 */
export function tierWasmLater(): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 20 && major <= 24) setFlagsFromString('--wasm-tiering-budget=180000000');
}
