import { TurnkitError } from '../errors.js';
import { screensOf, type Screen } from '../question/check-screens.js';
import type { LoadedQuestion } from '../question/load-question.js';
import type { Question } from '../question/question-format.js';
import type { Manifest } from '../run-dir/manifest.js';

/** The prefix of a rollout's transcript screens' default names (`transcript-must-contain`). */
const TRANSCRIPT_PREFIX = 'transcript-';

/**
 * Every screen of a question (or of a run, from the checks its manifest recorded): its checks, then a rollout's
 * transcript checks, whose default names start `transcript-`.
 */
export function questionScreens(
  checks: Question['checks'] | Manifest['checks'],
  transcriptChecks?: Question['transcriptChecks'],
): { checks: Screen[]; transcript: Screen[] } {
  return {
    checks: checks ? screensOf(checks) : [],
    transcript: transcriptChecks ? screensOf(transcriptChecks, TRANSCRIPT_PREFIX, ['transcriptChecks']) : [],
  };
}

/**
 * A question's screen names must tell its screens apart (they name report rows and expected results), and a
 * fixture's `skip` must name screens the question has: either mistake is refused at its place in the file.
 */
export function checkScreenNames(question: LoadedQuestion, extraNames: readonly string[] = []): string[] {
  const q = question.question;
  const { checks, transcript } = questionScreens(q.checks, q.transcriptChecks);
  const seen = new Map<string, Screen>();
  for (const screen of [...checks, ...transcript]) {
    const earlier = seen.get(screen.name);
    if (earlier)
      throw new TurnkitError(
        'BAD_INPUT',
        `${question.at(screen.at)}: screen "${screen.name}" is also the name of ${question.at(earlier.at).replace(/^.*: /, '')}: give each screen its own name`,
      );
    seen.set(screen.name, screen);
  }
  const names = [...seen.keys(), ...extraNames];
  for (const [index, entry] of q.fixtures.entries()) {
    if (typeof entry === 'string') continue;
    for (const [at, name] of (entry.skip ?? []).entries())
      if (!names.includes(name))
        throw new TurnkitError(
          'BAD_INPUT',
          `${question.at(['fixtures', index, 'skip', at])}: no screen is named "${name}" (the question's screens: ${names.join(', ') || 'none'})`,
        );
  }
  return names;
}
