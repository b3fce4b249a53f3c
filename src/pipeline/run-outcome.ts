import { TurnkitError } from '../errors.js';
import { shownPath } from '../util/shown-path.js';
import type { RunResult } from './finish-run.js';

/**
 * What a finished `turnkit run` deserves: undefined when it succeeded, else the error to exit 1 with. A run fails
 * when a rep file could not be written, when reps could not be seeded (the SUT never ran on them), when every rep
 * errored (the run says nothing about the SUT), or when it was interrupted with reps not run. `question` is the
 * question file as the user named it (undefined for `run --resume DIR`), for the resume command in the message.
 */
export function runFailure(result: RunResult, question: string | undefined): TurnkitError | undefined {
  const dir = shownPath(result.dir);
  // The manifest names the question, so resuming needs only the run directory; the question is shown when given.
  const resume = `turnkit run ${question !== undefined ? `${question} ` : ''}--resume ${dir}`;
  // Not done is not success: a script must not go on to mark or report an incomplete run.
  // One line: the first failure (a full disk fails every rep after it the same way), and how many more there were.
  if (result.failures.length > 0) {
    const more = result.failures.length > 1 ? ` (and ${result.failures.length - 1} more failure(s) like it)` : '';
    return new TurnkitError('INCOMPLETE_RUN', `${result.failures[0]!}${more}`);
  }
  // A rep that could not be seeded never reached the SUT: the database needs fixing, then --resume.
  if (result.seedErrors.count > 0) {
    return new TurnkitError(
      'SEED_FAILED',
      `${dir}: ${result.seedErrors.count} rep(s) could not be seeded, so the SUT never ran on them (${result.seedErrors.first}); fix the database, then: ${resume}`,
    );
  }
  // Nothing to mark: a SUT that hangs, floods or exits nonzero on every rep is a broken run, not a finished one.
  if (result.total > 0 && result.errors === result.total) {
    // A fact the campaign does not answer is the question's mistake: the run cannot be resumed once it is fixed.
    if (/^[^:]+ rep \d+: facts: /.test(result.firstError ?? ''))
      return new TurnkitError(
        'SUT_FAILED',
        `${dir}: all ${result.total} rep(s) errored before the SUT ran (first: ${result.firstError}); fix the question's facts, then run it again`,
      );
    return new TurnkitError(
      'SUT_FAILED',
      `${dir}: all ${result.total} rep(s) errored, so there is nothing to mark (first: ${result.firstError ?? 'unknown'}); fix the SUT, then: ${resume}`,
    );
  }
  if (result.pending > 0 && result.budget?.reached && result.budget.uncounted !== undefined)
    return new TurnkitError(
      'INCOMPLETE_RUN',
      `${dir}: stopped: --max-cost ${result.budget.maxCost} cannot count this run's cost (${result.budget.uncounted}) with ${result.pending} rep(s) not run; once it can, or without --max-cost, finish it with: ${resume}`,
    );
  if (result.pending > 0 && result.budget?.reached)
    return new TurnkitError(
      'INCOMPLETE_RUN',
      `${dir}: stopped at --max-cost ${result.budget.maxCost} (this run spent ${result.budget.spent}) with ${result.pending} rep(s) not run; finish it with: ${resume}`,
    );
  if (result.pending > 0)
    return new TurnkitError(
      'INCOMPLETE_RUN',
      `${dir}: interrupted with ${result.pending} rep(s) not run; finish it with: ${resume}`,
    );
  return undefined;
}
