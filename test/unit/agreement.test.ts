import { describe, expect, it } from 'vitest';
import { agreement, cohensKappa } from '../../src/stats/agreement.js';
import type { Mark } from '../../src/run-dir/marks/marks-file.js';
import { parseMarksText, type ReadMark } from '../../src/run-dir/marks/read-marks.js';
import { repId } from '../../src/run-dir/run-state.js';

type Row = [fixture: string, rep: number, mark: Mark, note?: string];

/** A marks map as readMarksFile returns it, from hand-written rows. */
function marks(rows: readonly Row[]): Map<string, ReadMark> {
  return new Map(
    rows.map(([fixture, rep, mark, note = ''], i) => [
      repId({ fixture, rep }),
      { fixture, rep, mark, note, line: i + 2 },
    ]),
  );
}

/**
 * Two graders' marks over reps f-1..f-N laid out as a confusion matrix (rows A's mark, columns B's):
 * pp reps both pass, pf A pass B fail, fp A fail B pass, ff both fail.
 */
function fromConfusion(
  pp: number,
  pf: number,
  fp: number,
  ff: number,
  fixture = 'f',
): [Map<string, ReadMark>, Map<string, ReadMark>] {
  const a: Row[] = [];
  const b: Row[] = [];
  let rep = 0;
  const add = (n: number, markA: Mark, markB: Mark): void => {
    for (let i = 0; i < n; i++) {
      rep++;
      a.push([fixture, rep, markA]);
      b.push([fixture, rep, markB]);
    }
  };
  add(pp, 'pass', 'pass');
  add(pf, 'pass', 'fail');
  add(fp, 'fail', 'pass');
  add(ff, 'fail', 'fail');
  return [marks(a), marks(b)];
}

describe('agreement: ratio, kappa, marginals', () => {
  it('62 agreed of 65 matched: ratio 62/65 and kappa 1756/1951', () => {
    // Confusion [[40, 2], [1, 22]]: matched 65, agreed 40 + 22 = 62, ratio 62/65 = 0.953846...
    // pA = (40 + 2)/65 = 42/65, pB = (40 + 1)/65 = 41/65.
    // chance pe = (42·41 + 23·24)/65² = (1722 + 552)/4225 = 2274/4225; observed po = 62/65 = 4030/4225.
    // kappa = (4030 − 2274)/(4225 − 2274) = 1756/1951 = 0.9000512557...
    const [a, b] = fromConfusion(40, 2, 1, 22);
    const result = agreement(a, b);
    expect(result).toMatchObject({
      matched: 65,
      agreed: 62,
      confusion: { passPass: 40, passFail: 2, failPass: 1, failFail: 22 },
      unmatched: 0,
    });
    expect(result.ratio).toBeCloseTo(62 / 65, 12);
    expect(result.kappa).toBeCloseTo(1756 / 1951, 12);
    expect(result.kappa).toBeCloseTo(0.9000512558, 9);
    expect(result.passRateA).toBeCloseTo(42 / 65, 12);
    expect(result.passRateB).toBeCloseTo(41 / 65, 12);
    expect(result.disagreements).toHaveLength(3);
  });

  it('confusion [[20, 5], [10, 15]]: po 0.7, pe 0.5, kappa 0.4', () => {
    // matched 50, agreed 20 + 15 = 35, po = 35/50 = 0.7.
    // pA = 25/50 = 0.5, pB = (20 + 10)/50 = 0.6; pe = 0.5·0.6 + 0.5·0.4 = 0.3 + 0.2 = 0.5.
    // kappa = (0.7 − 0.5)/(1 − 0.5) = 0.4.
    const [a, b] = fromConfusion(20, 5, 10, 15);
    const result = agreement(a, b);
    expect(result).toMatchObject({ matched: 50, agreed: 35 });
    expect(result.ratio).toBeCloseTo(0.7, 12);
    expect(result.passRateA).toBeCloseTo(0.5, 12);
    expect(result.passRateB).toBeCloseTo(0.6, 12);
    expect(result.kappa).toBeCloseTo(0.4, 12);
  });

  it('is symmetric in kappa and ratio, and transposes the matrix, when A and B swap', () => {
    const [a, b] = fromConfusion(20, 5, 10, 15);
    const swapped = agreement(b, a);
    expect(swapped.confusion).toEqual({ passPass: 20, passFail: 10, failPass: 5, failFail: 15 });
    expect(swapped.kappa).toBeCloseTo(0.4, 12);
    expect(swapped.passRateA).toBeCloseTo(0.6, 12);
    expect(swapped.passRateB).toBeCloseTo(0.5, 12);
    expect(swapped.disagreements.map((d) => [d.a, d.b])).toEqual([
      ...Array(5).fill(['fail', 'pass']),
      ...Array(10).fill(['pass', 'fail']),
    ]);
  });

  it('perfect agreement with both marks used: kappa 1', () => {
    // [[3, 0], [0, 2]]: po = 1; pA = pB = 0.6; pe = 0.36 + 0.16 = 0.52; kappa = 0.48/0.48 = 1.
    const [a, b] = fromConfusion(3, 0, 0, 2);
    expect(agreement(a, b)).toMatchObject({ matched: 5, agreed: 5, ratio: 1, kappa: 1, disagreements: [] });
  });

  it('kappa can be negative: [[0, 5], [5, 0]] is −1 and [[1, 4], [4, 1]] is −0.6', () => {
    // [[0, 5], [5, 0]]: po = 0; pA = pB = 0.5; pe = 0.25 + 0.25 = 0.5; kappa = (0 − 0.5)/0.5 = −1.
    const [a1, b1] = fromConfusion(0, 5, 5, 0);
    const worst = agreement(a1, b1);
    expect(worst.ratio).toBe(0);
    expect(worst.kappa).toBeCloseTo(-1, 12);
    // [[1, 4], [4, 1]]: po = 2/10 = 0.2; pA = pB = 0.5; pe = 0.5; kappa = (0.2 − 0.5)/0.5 = −0.6.
    const [a2, b2] = fromConfusion(1, 4, 4, 1);
    expect(agreement(a2, b2).kappa).toBeCloseTo(-0.6, 12);
  });

  it('kappa is 0, not null, when agreement equals chance', () => {
    // [[6, 4], [9, 6]]: matched 25, po = 12/25 = 0.48; pA = 10/25 = 0.4, pB = 15/25 = 0.6;
    // pe = 0.4·0.6 + 0.6·0.4 = 0.48; kappa = 0/0.52 = 0.
    const [a, b] = fromConfusion(6, 4, 9, 6);
    const result = agreement(a, b);
    expect(result.ratio).toBeCloseTo(0.48, 12);
    expect(result.kappa).not.toBeNull();
    expect(result.kappa).toBeCloseTo(0, 12);
    // A passes everything, B is mixed [[3, 2], [0, 0]]: pA = 1, so pe = pB = 0.6 = po and kappa = 0.
    const [a2, b2] = fromConfusion(3, 2, 0, 0);
    expect(agreement(a2, b2).kappa).toBeCloseTo(0, 12);
    // A passes everything, B fails everything [[0, 4], [0, 0]]: po = 0, pe = 1·0 + 0·1 = 0, kappa = 0/1 = 0.
    const [a3, b3] = fromConfusion(0, 4, 0, 0);
    const opposite = agreement(a3, b3);
    expect(opposite.ratio).toBe(0);
    expect(opposite.kappa).toBeCloseTo(0, 12);
  });

  it('kappa is null, never 0, when nothing matched', () => {
    const a = marks([
      ['f', 1, 'na'],
      ['f', 2, ''],
      ['f', 3, 'pass'],
      ['g', 1, 'error'],
    ]);
    const b = marks([
      ['f', 1, 'pass'],
      ['f', 2, 'fail'],
      ['f', 3, 'na'],
      ['g', 1, 'fail'],
    ]);
    const result = agreement(a, b);
    expect(result).toEqual({
      matched: 0,
      agreed: 0,
      ratio: null,
      kappa: null,
      confusion: { passPass: 0, passFail: 0, failPass: 0, failFail: 0 },
      passRateA: null,
      passRateB: null,
      unmatched: 4,
      disagreements: [],
    });
    expect(agreement(new Map(), new Map())).toMatchObject({ matched: 0, kappa: null, ratio: null, unmatched: 0 });
  });

  it('kappa is null when both graders gave every matched rep the same single mark (pe = 1)', () => {
    // All pass by both: po = 1, pA = pB = 1, pe = 1: kappa = 0/0, undefined.
    const [a, b] = fromConfusion(7, 0, 0, 0);
    expect(agreement(a, b)).toMatchObject({ matched: 7, agreed: 7, ratio: 1, kappa: null, passRateA: 1, passRateB: 1 });
    // All fail by both: pA = pB = 0, pe = 0·0 + 1·1 = 1.
    const [c, d] = fromConfusion(0, 0, 0, 3);
    expect(agreement(c, d)).toMatchObject({ matched: 3, ratio: 1, kappa: null, passRateA: 0, passRateB: 0 });
  });
});

describe('agreement: which reps count', () => {
  it('na, error, blank and missing reps are outside the numbers; unmatched counts those the other graded pass/fail', () => {
    const a = marks([
      ['f', 1, 'pass'], // matched: pass/pass
      ['f', 2, 'fail'], // matched: fail/pass (a disagreement)
      ['f', 3, 'na'], // unmatched: B fail
      ['f', 4, 'error'], // unmatched: B pass
      ['f', 5, ''], // unmatched: B pass
      ['f', 6, 'pass'], // unmatched: B left it out
      ['f', 7, 'na'], // neither graded: not counted
      ['f', 8, 'error'], // neither graded: not counted
      ['f', 9, ''], // B left it out and A did not grade it: not counted
      // f 10: A left it out, B fail: unmatched
    ]);
    const b = marks([
      ['f', 1, 'pass'],
      ['f', 2, 'pass'],
      ['f', 3, 'fail'],
      ['f', 4, 'pass'],
      ['f', 5, 'pass'],
      ['f', 7, 'na'],
      ['f', 8, ''],
      ['f', 10, 'fail'],
    ]);
    const result = agreement(a, b);
    // Unmatched: f3, f4, f5, f6, f10 = 5.
    expect(result).toMatchObject({
      matched: 2,
      agreed: 1,
      unmatched: 5,
      confusion: { passPass: 1, passFail: 0, failPass: 1, failFail: 0 },
    });
    expect(result.ratio).toBe(0.5);
    // [[1, 0], [1, 0]]: po = 0.5; pA = 0.5, pB = 1; pe = 0.5·1 + 0.5·0 = 0.5; kappa = 0/0.5 = 0.
    expect(result.kappa).toBeCloseTo(0, 12);
    expect(result.passRateA).toBe(0.5);
    expect(result.passRateB).toBe(1);
  });

  it('lists every disagreement with fixture, rep, both marks and both notes, sorted by fixture then rep number', () => {
    const a = marks([
      ['zeta', 10, 'pass', 'A: names deck 2'],
      ['alpha', 2, 'fail', 'A: wrong deck'],
      ['zeta', 9, 'fail', ''],
      ['alpha', 1, 'pass', 'agree'],
      ['beta', 3, 'pass', 'A: fine'],
      ['alpha', 11, 'pass', 'A: ok'],
    ]);
    const b = marks([
      ['alpha', 11, 'fail', 'B: no route'],
      ['beta', 3, 'pass', 'agreed'],
      ['zeta', 9, 'pass', 'B: deck 2'],
      ['alpha', 1, 'pass', 'agree'],
      ['zeta', 10, 'fail', 'B: "deck 3", says the judge'],
      ['alpha', 2, 'pass', 'B: right deck'],
    ]);
    const result = agreement(a, b);
    // Numeric order of reps: 2 before 11, 9 before 10.
    expect(result.disagreements).toEqual([
      { fixture: 'alpha', rep: 2, a: 'fail', b: 'pass', noteA: 'A: wrong deck', noteB: 'B: right deck' },
      { fixture: 'alpha', rep: 11, a: 'pass', b: 'fail', noteA: 'A: ok', noteB: 'B: no route' },
      { fixture: 'zeta', rep: 9, a: 'fail', b: 'pass', noteA: '', noteB: 'B: deck 2' },
      {
        fixture: 'zeta',
        rep: 10,
        a: 'pass',
        b: 'fail',
        noteA: 'A: names deck 2',
        noteB: 'B: "deck 3", says the judge',
      },
    ]);
    expect(result).toMatchObject({ matched: 6, agreed: 2 });
  });

  it('reads the same numbers from hand-made marks files (blank, na and error rows, quoted notes, provenance columns)', () => {
    const human = [
      'fixture,rep,mark,note',
      'alpha,1,pass,',
      'alpha,2,fail,"wrong deck, says 3"',
      'alpha,3,na,no place asked',
      'beta,1,pass,',
      'beta,2,,',
      'beta,3,fail,',
      '',
    ].join('\n');
    const judge = [
      'fixture,rep,mark,note,grader,marked_at,rubric_version',
      'alpha,1,pass,Deck 2.,judge-gpt,2026-01-01T00:00:00.000Z,1',
      'alpha,2,pass,"The response names ""deck 2"".",judge-gpt,2026-01-01T00:00:00.000Z,1',
      'alpha,3,fail,No deck.,judge-gpt,2026-01-01T00:00:00.000Z,1',
      'beta,1,error,the judge answered nothing,judge-gpt,2026-01-01T00:00:00.000Z,1',
      'beta,2,pass,ok,judge-gpt,2026-01-01T00:00:00.000Z,1',
      'beta,3,fail,Deck 3.,judge-gpt,2026-01-01T00:00:00.000Z,1',
      '',
    ].join('\n');
    const scope = { fixtures: ['alpha', 'beta'], reps: 3 };
    const result = agreement(
      parseMarksText(human, 'marks.csv', scope),
      parseMarksText(judge, 'marks.judge-gpt.csv', scope),
    );
    // Matched: alpha 1 (pass/pass), alpha 2 (fail/pass), beta 3 (fail/fail) = 3, agreed 2.
    // Unmatched: alpha 3 (na vs fail), beta 1 (pass vs error), beta 2 (blank vs pass) = 3.
    // [[1, 0], [1, 1]]: po = 2/3; pA = 1/3, pB = 2/3; pe = 1/3·2/3 + 2/3·1/3 = 4/9; kappa = (2/3 − 4/9)/(5/9) = 2/5.
    expect(result).toMatchObject({
      matched: 3,
      agreed: 2,
      unmatched: 3,
      confusion: { passPass: 1, passFail: 0, failPass: 1, failFail: 1 },
    });
    expect(result.ratio).toBeCloseTo(2 / 3, 12);
    expect(result.kappa).toBeCloseTo(0.4, 12);
    expect(result.disagreements).toEqual([
      {
        fixture: 'alpha',
        rep: 2,
        a: 'fail',
        b: 'pass',
        noteA: 'wrong deck, says 3',
        noteB: 'The response names "deck 2".',
      },
    ]);
  });
});

describe('cohensKappa', () => {
  it('computes (po − pe)/(1 − pe) from counts and marginals', () => {
    expect(cohensKappa(50, 35, 0.5, 0.6)).toBeCloseTo(0.4, 12);
    expect(cohensKappa(65, 62, 42 / 65, 41 / 65)).toBeCloseTo(1756 / 1951, 12);
  });

  it('is null when nothing matched or chance agreement is certain', () => {
    expect(cohensKappa(0, 0, null, null)).toBeNull();
    expect(cohensKappa(0, 0, 0.5, 0.5)).toBeNull();
    expect(cohensKappa(4, 4, 1, 1)).toBeNull();
    expect(cohensKappa(4, 4, 0, 0)).toBeNull();
    expect(cohensKappa(4, 0, 1, 0)).toBe(0);
  });
});
