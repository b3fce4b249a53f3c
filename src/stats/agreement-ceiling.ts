import { wilsonInterval, type Interval } from './stats.js';

/** Where a judge's agreement with the person stands against the person's agreement with themself. */
type CeilingStanding = 'below' | 'within' | 'above';

/** One grader's agreement with the person, read against the person's self-agreement (the ceiling). */
export interface CeilingVerdict {
  file: string;
  agreement: { agreed: number; matched: number; ratio: number; interval: Interval };
  /** The blind re-mark the ceiling comes from. */
  selfFile: string;
  ceiling: { agreed: number; matched: number; ratio: number; interval: Interval };
  standing: CeilingStanding;
}

/**
 * The seed's test of whether a judge is good enough: a person who agrees with themself 90% of the time cannot
 * expect a judge to agree with them more. Both agreements get Wilson 95% intervals; the judge is below the ceiling
 * when its interval lies wholly under the self-agreement's, above when wholly over it, and within when they overlap
 * (the data cannot tell them apart).
 */
export function ceilingVerdict(
  file: string,
  judge: { agreed: number; matched: number },
  selfFile: string,
  self: { agreed: number; matched: number },
): CeilingVerdict | undefined {
  const judgeInterval = wilsonInterval(judge.agreed, judge.matched);
  const selfInterval = wilsonInterval(self.agreed, self.matched);
  if (!judgeInterval || !selfInterval) return undefined;
  const standing: CeilingStanding =
    judgeInterval.high < selfInterval.low ? 'below' : judgeInterval.low > selfInterval.high ? 'above' : 'within';
  return {
    file,
    agreement: { ...judge, ratio: judge.agreed / judge.matched, interval: judgeInterval },
    selfFile,
    ceiling: { ...self, ratio: self.agreed / self.matched, interval: selfInterval },
    standing,
  };
}
