import { TurnkitError } from '../errors.js';

/** The most reps per fixture a question (or `--reps`) may ask for. */
export const MAX_REPS = 10_000;
/** The most reps a run may hold, fixtures x reps. */
const MAX_RUN_REPS = 100_000;

// Why there is a limit at all: a typo of a few zeros must be a message, not a process that eats memory until it dies.
const WHY = 'a run plans every rep before the first one starts, and keeps two files per rep and a row of marks.csv';

/** The message for a reps count above MAX_REPS. */
export const TOO_MANY_REPS = `at most ${MAX_REPS} reps per fixture (${WHY})`;

/** Refuses `--reps N` above the limit, before anything is read or planned (a usage error). */
export function checkRepsOption(reps: number | undefined): void {
  if (reps !== undefined && reps > MAX_REPS) throw new TurnkitError('USAGE', `--reps ${reps}: ${TOO_MANY_REPS}`);
}

/** Refuses a run of more than MAX_RUN_REPS reps; `where` names what set the reps (`--reps 5000` or the file's place). */
export function checkRunSize(fixtures: number, reps: number, where: string): void {
  const total = fixtures * reps;
  if (total <= MAX_RUN_REPS) return;
  throw new TurnkitError(
    'BAD_INPUT',
    `${where}: ${fixtures} fixtures x ${reps} reps = ${total} reps; at most ${MAX_RUN_REPS} per run (${WHY}): use fewer reps, or split the fixtures across questions`,
  );
}
