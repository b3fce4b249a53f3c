import { holmAdjust } from '../stats/holm.js';
import { mantelHaenszel, pairedStratum, type MantelHaenszel } from '../stats/mantel-haenszel.js';
import { shownPath } from '../util/shown-path.js';
import { TurnkitError } from '../errors.js';
import { rateDifference, type Report } from './build-report.js';
import { comparePlayers, type PlayersComparison } from './compare-players.js';

/** One fixture in both runs: this run's rate against the other's. */
interface FixtureDelta {
  fixture: string;
  tag: 'dev' | 'heldout' | null;
  here: { pass: number; fail: number; rate: number | null };
  there: { pass: number; fail: number; rate: number | null };
  /** rate here - rate there; null unless both have qualified reps. */
  delta: number | null;
  /** Two-sided Fisher exact p of the two runs' pass/fail counts; null unless both have qualified reps. */
  p: number | null;
  /** The fixture file's bytes differ between the runs: the delta may not be the SUT's doing. */
  fixtureChanged: boolean;
}

/** This run against another run of the same question. */
export interface Comparison {
  otherDir: string;
  fixtures: FixtureDelta[];
  /** Fixtures only one of the runs has. */
  onlyHere: string[];
  onlyThere: string[];
  /** What makes the comparison less than like for like (rubric version, fixture bytes, question text). */
  warnings: string[];
  /** Paired by fixture: the CMH test stratified by fixture and the pooled difference (here - there) with an
   * interval clustered by fixture; Holm-adjusted per-fixture p-values, in the order of `fixtures`. */
  paired?: { test: MantelHaenszel; holm: (number | null)[] };
  /** Rollout runs of different players, one of them on recorded inputs: the player's effect turn by turn. */
  players?: PlayersComparison;
}

/** Compares two runs' reports fixture by fixture; runs of different questions are refused. */
export function compareReports(here: Report, there: Report): Comparison {
  if (here.question.id !== there.question.id) {
    throw new TurnkitError(
      'BAD_INPUT',
      `--compare ${shownPath(there.dir)}: a run of question "${there.question.id}", not "${here.question.id}"; only runs of one question compare`,
    );
  }
  // Refused here when neither run played the recorded inputs and their players differ.
  const players = comparePlayers(here, there);
  const warnings: string[] = [];
  if (here.rubricVersion !== there.rubricVersion)
    warnings.push(
      `rubric versions differ: ${here.rubricVersion} here, ${there.rubricVersion} there; the marks may not mean the same`,
    );
  if (here.question.text !== there.question.text) warnings.push('the question text differs between the runs');
  const theirs = new Map(there.fixtures.map((fixture) => [fixture.fixture, fixture]));
  const fixtures = here.fixtures.flatMap((mine): FixtureDelta[] => {
    const other = theirs.get(mine.fixture);
    if (!other) return [];
    const fixtureChanged = mine.sha256 !== other.sha256;
    if (fixtureChanged)
      warnings.push(
        `${mine.fixture}: the fixture file differs between the runs (sha256 ${mine.sha256.slice(0, 12)} here, ${other.sha256.slice(0, 12)} there)`,
      );
    return [
      {
        fixture: mine.fixture,
        tag: mine.tag,
        here: { pass: mine.pass, fail: mine.fail, rate: mine.rate },
        there: { pass: other.pass, fail: other.fail, rate: other.rate },
        ...rateDifference(mine, other),
        fixtureChanged,
      },
    ];
  });
  const mineNames = new Set(here.fixtures.map((fixture) => fixture.fixture));
  return {
    otherDir: there.dir,
    fixtures,
    onlyHere: here.fixtures.filter((fixture) => !theirs.has(fixture.fixture)).map((fixture) => fixture.fixture),
    onlyThere: there.fixtures.filter((fixture) => !mineNames.has(fixture.fixture)).map((fixture) => fixture.fixture),
    warnings,
    ...(players ? { players } : {}),
    paired: {
      test: mantelHaenszel(fixtures.map((entry) => pairedStratum(entry.here, entry.there))),
      holm: holmAdjust(fixtures.map((entry) => entry.p)),
    },
  };
}
