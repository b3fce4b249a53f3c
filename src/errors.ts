/**
 * Machine-readable reasons a turnkit operation failed as expected (bad input, unreachable database, ...). The
 * outcomes of a finished operation that did not succeed have codes of their own: a run that is not complete
 * (`INCOMPLETE_RUN`), reps that could not be seeded (`SEED_FAILED`), a SUT that errored on every rep (`SUT_FAILED`),
 * a fixture that did not meet its target under `--check` (`TARGET_MISSED`), a judge that could not judge
 * (`JUDGE_FAILED`).
 */
export type TurnkitErrorCode =
  | 'BAD_INPUT'
  | 'CONFIG'
  | 'DATABASE'
  | 'NOT_FOUND'
  | 'EXISTS'
  | 'FIXTURE'
  | 'USAGE'
  /** A file could not be written (a full disk, a read-only file system). */
  | 'IO'
  | 'INCOMPLETE_RUN'
  | 'SEED_FAILED'
  | 'SUT_FAILED'
  | 'TARGET_MISSED'
  | 'JUDGE_FAILED';

// Marks every TurnkitError, whichever copy of this module made it: a TypeScript config (or case-file function) is
// loaded through tsx's tsImport, which loads what it imports in a namespace of its own, so a config that imports
// from 'turnkit' gets a second copy of this class even from the same install.
const BRAND = Symbol.for('turnkit.TurnkitError');

/** An expected failure: printed as one line, mapped to an exit code, never shown with a stack unless --debug. */
export class TurnkitError extends Error {
  /**
   * `instanceof TurnkitError` holds for one made by either copy of the class (the command line's, or the one a
   * TypeScript config imports), so that a config's TurnkitError is shown as one. A subclass checks as usual.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class instanceof asks about, a subclass included
    if (this !== TurnkitError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && BRAND in value;
  }

  /** Why it failed, for callers that branch on it. */
  readonly code: TurnkitErrorCode;
  /** Every problem found, one line each; `message` is the first (or a summary). */
  readonly problems: readonly string[];

  constructor(
    code: TurnkitErrorCode,
    message: string,
    problems: readonly string[] = [message],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TurnkitError';
    this.code = code;
    this.problems = problems;
  }
}
// On the prototype, so that no error shows it among its own properties (util.inspect, a test's equality).
Object.defineProperty(TurnkitError.prototype, BRAND, { value: true });

/** Exit code for an error: 2 for wrong usage, 1 for every other failure. */
export function exitCodeFor(error: unknown): number {
  return error instanceof TurnkitError && error.code === 'USAGE' ? 2 : 1;
}

/** True when the error is one turnkit raised on purpose (as opposed to a bug). */
export function isTurnkitError(error: unknown): error is TurnkitError {
  return error instanceof TurnkitError;
}
