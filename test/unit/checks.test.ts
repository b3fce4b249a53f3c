import { describe, expect, it } from 'vitest';
import { applyChecks } from '../../src/checks/run-checks.js';
import { containsTerm } from '../../src/question/check-screens.js';
import { checkRegex } from '../../src/question/check-regex.js';
import { checksSchema } from '../../src/question/checks-format.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

/** A completed rep with the given response; `overrides` replace whole fields. */
function rep(response: string | null, overrides: Partial<RepRecord> = {}): RepRecord {
  return {
    fixture: 'alpha',
    rep: 1,
    attempt: 1,
    startedAt: '2025-01-01T00:00:00.000Z',
    request: { campaign: 'c1', turn: 3, input: { action: 'move' }, caseFile: '# case', fixture: 'alpha', rep: 1 },
    response,
    error: null,
    exit: { code: 0, signal: null },
    timings: { seedMs: 5, sutMs: 100, teardownMs: 5, totalMs: 110 },
    scratch: { id: 's1', strategy: 'copy' },
    effects: { inserted: {}, updated: {}, deleted: {}, insertedRows: {} },
    ...overrides,
  };
}

/** A rep whose SUT inserted these rows into `turns`. */
function withTurns(rows: Record<string, unknown>[]): RepRecord {
  return rep('done', {
    effects: { inserted: { turns: rows.length }, updated: {}, deleted: {}, insertedRows: { turns: rows } },
  });
}

describe('containsTerm', () => {
  it('matches a whole word, ignoring case and punctuation around it', () => {
    expect(containsTerm('We use GO.', 'Go')).toBe(true);
    expect(containsTerm('We use Go', 'Go')).toBe(true);
    expect(containsTerm('(go)', 'Go')).toBe(true);
  });

  it('does not match inside a longer word', () => {
    expect(containsTerm('an ongoing campaign', 'Go')).toBe(false);
    expect(containsTerm('Going north', 'Go')).toBe(false);
    expect(containsTerm('Go_lang', 'Go')).toBe(false);
    expect(containsTerm('Go2', 'Go')).toBe(false);
  });

  it('matches a multi-word phrase as a whole', () => {
    expect(containsTerm('Check the Turn Order first.', 'turn order')).toBe(true);
    expect(containsTerm('the turn ordering', 'turn order')).toBe(false);
    expect(containsTerm('turn, order', 'turn order')).toBe(false);
  });

  it('takes regex metacharacters in a term literally', () => {
    expect(containsTerm('Written in C++.', 'C++')).toBe(true);
    expect(containsTerm('Written in C.', 'C++')).toBe(false);
    expect(containsTerm('see a.b here', 'a.b')).toBe(true);
    expect(containsTerm('see axb here', 'a.b')).toBe(false);
    expect(containsTerm('cost (total) 5', '(total)')).toBe(true);
  });

  it('treats letters of any script as word characters', () => {
    expect(containsTerm('two cafés', 'café')).toBe(false);
    expect(containsTerm('the CAFÉ is open', 'café')).toBe(true);
    expect(containsTerm('東京タワー', '東京')).toBe(false);
    expect(containsTerm('in 東京 now', '東京')).toBe(true);
  });
});

describe('checksSchema', () => {
  it('fills in defaults for what a question leaves out', () => {
    expect(checksSchema.parse({ mustContain: ['Go'] })).toEqual({
      mustContain: ['Go'],
      mustNotContain: [],
      matches: [],
      mustNotMatch: [],
      effects: { inserted: [], noOutsideChanges: false },
    });
    expect(checksSchema.parse({ effects: { inserted: [{ table: 'turns' }] } }).effects.inserted).toEqual([
      { table: 'turns', nonEmpty: [] },
    ]);
  });

  it('refuses an empty checks object: a question with checks must declare one', () => {
    const result = checksSchema.safeParse({});
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['declare at least one check']);
  });

  it('refuses an invalid regular expression, as a string or with flags', () => {
    const plain = checksSchema.safeParse({ matches: ['(unclosed'] });
    expect(plain.success).toBe(false);
    expect(plain.error?.issues[0]?.message).toMatch(/^not a regular expression: /);
    expect(checksSchema.safeParse({ mustNotMatch: [{ pattern: '[a-', flags: 'i' }] }).success).toBe(false);
    expect(checksSchema.safeParse({ matches: [{ pattern: 'ok', flags: 'g' }] }).success).toBe(false);
  });

  it('runs patterns in linear time: a catastrophic pattern answers at once, one needing backtracking is refused', () => {
    // On a backtracking engine ^(a+)+$ takes about 2^42 steps on 42 a's and a b; on RE2 it is a linear scan.
    const screens = checksSchema.parse({ mustNotMatch: ['^.*?(a+)+$'] });
    expect(applyChecks(screens, rep(`${'a'.repeat(42)}b`)).mark).toBe('pass');
    expect(applyChecks(screens, rep('a'.repeat(42))).mark).toBe('fail');
    const lookbehind = checksSchema.safeParse({ matches: ['(?<=deck )2'] });
    expect(lookbehind.error?.issues[0]?.message).toMatch(
      /^not a regular expression: .*patterns run in linear time \(RE2\), which has no lookarounds or backreferences$/,
    );
    expect(checksSchema.safeParse({ matches: ['(a)\\1'] }).success).toBe(false);
  });

  it('compiles a plain string as it will run (with the u flag): an escape the u flag refuses is refused here', () => {
    // deck\ 2 (an escaped space) is valid without flags but an invalid escape under u, which a plain string runs with.
    const plain = checksSchema.safeParse({ matches: ['deck\\ 2'] });
    expect(plain.success).toBe(false);
    expect(plain.error?.issues).toHaveLength(1);
    expect(plain.error?.issues[0]?.path).toEqual(['matches', 0]);
    expect(plain.error?.issues[0]?.message).toMatch(/^not a regular expression: .*Invalid escape/);
    expect(checksSchema.safeParse({ mustNotMatch: ['deck\\ 2'] }).success).toBe(false);
    // With flags given (no u), the same pattern is valid and runs with exactly those flags.
    const flagged = checksSchema.parse({ matches: [{ pattern: 'deck\\ 2', flags: 'i' }] });
    expect(flagged.matches).toEqual([{ pattern: 'deck\\ 2', flags: 'i' }]);
    expect(applyChecks(flagged, rep('Take the lift to Deck 2.'))).toEqual({
      mark: 'pass',
      reason: '1 check(s) passed',
    });
    expect(applyChecks(flagged, rep('Take the lift to Deck 3.'))).toEqual({
      mark: 'fail',
      reason: 'does not match /deck\\ 2/i',
    });
  });

  it('checkRegex gives a plain string the u flag and an entry with flags exactly those flags', () => {
    expect(checkRegex('deck').flags).toBe('u');
    expect(checkRegex({ pattern: 'deck' }).flags).toBe('u');
    expect(checkRegex({ pattern: 'deck', flags: 'i' }).flags).toBe('i');
    expect(checkRegex({ pattern: 'deck\\ 2', flags: 'i' }).test('DECK 2')).toBe(true);
    expect(() => checkRegex('deck\\ 2')).toThrow(SyntaxError);
  });
});

describe('applyChecks: the response', () => {
  it('passes "The project does not use Go" against must-contain "Go"', () => {
    // Deliberately kept: checks are narrow screens, not judges. A term check sees the word, not the meaning;
    // judging whether the answer is right is a grader's (or an LLM judge's) job.
    const checks = checksSchema.parse({ mustContain: ['Go'] });
    expect(applyChecks(checks, rep('The project does not use Go'))).toEqual({
      mark: 'pass',
      reason: '1 check(s) passed',
    });
  });

  it('fails must-contain on a missing term and must-not-contain on a present one', () => {
    const checks = checksSchema.parse({ mustContain: ['deck 3'], mustNotContain: ['sorry'] });
    expect(applyChecks(checks, rep('Take the lift to deck 3.'))).toEqual({ mark: 'pass', reason: '2 check(s) passed' });
    expect(applyChecks(checks, rep('Sorry, deck 4.'))).toEqual({
      mark: 'fail',
      reason: 'does not contain "deck 3"; contains "sorry"',
    });
  });

  it('treats a null response as empty text', () => {
    const checks = checksSchema.parse({ mustContain: ['x'] });
    expect(applyChecks(checks, rep(null))).toEqual({ mark: 'fail', reason: 'does not contain "x"' });
  });

  it('applies regexes as written: a string, or {pattern, flags}', () => {
    const checks = checksSchema.parse({
      matches: ['deck \\d+', { pattern: '^the', flags: 'i' }],
      mustNotMatch: [{ pattern: 'TODO' }],
    });
    expect(applyChecks(checks, rep('The lift goes to deck 12.')).mark).toBe('pass');
    // A string pattern is case-sensitive: "Deck" is not "deck".
    expect(applyChecks(checks, rep('The lift goes to Deck 12. TODO')).reason).toBe(
      'does not match /deck \\d+/; matches /TODO/',
    );
    expect(applyChecks(checks, rep('A lift to deck 1')).reason).toBe('does not match /^the/i');
  });

  it('lists every failed check in the reason, in declaration order', () => {
    const checks = checksSchema.parse({
      mustContain: ['alpha', 'beta'],
      mustNotContain: ['gamma'],
      matches: ['^\\d'],
      effects: { inserted: [{ table: 'turns' }], noOutsideChanges: true },
    });
    const verdict = applyChecks(checks, rep('gamma only', { outside: ['players row 7'] }));
    expect(verdict).toEqual({
      mark: 'fail',
      reason:
        'does not contain "alpha"; does not contain "beta"; contains "gamma"; does not match /^\\d/; inserted no turns row; changed rows outside its campaign (players row 7)',
    });
  });
});

describe('applyChecks: effects and errors', () => {
  const narrated = checksSchema.parse({ effects: { inserted: [{ table: 'turns', nonEmpty: ['narration'] }] } });

  it('passes when an inserted turns row has non-empty narration', () => {
    expect(
      applyChecks(
        narrated,
        withTurns([
          { id: 1, narration: '' },
          { id: 2, narration: 'The ship docks.' },
        ]),
      ).mark,
    ).toBe('pass');
  });

  it('fails when narration is an empty string, blank, null or missing, or no turns row was inserted', () => {
    const reason = 'inserted no turns row with non-empty narration';
    expect(applyChecks(narrated, withTurns([{ id: 1, narration: '' }]))).toEqual({ mark: 'fail', reason });
    expect(applyChecks(narrated, withTurns([{ id: 1, narration: '   ' }]))).toEqual({ mark: 'fail', reason });
    expect(applyChecks(narrated, withTurns([{ id: 1, narration: null }]))).toEqual({ mark: 'fail', reason });
    expect(applyChecks(narrated, withTurns([{ id: 1 }]))).toEqual({ mark: 'fail', reason });
    expect(applyChecks(narrated, rep('done'))).toEqual({ mark: 'fail', reason });
    expect(applyChecks(narrated, rep('done', { effects: null }))).toEqual({ mark: 'fail', reason });
  });

  it('noOutsideChanges fails when the rep wrote outside its campaign', () => {
    const checks = checksSchema.parse({ effects: { noOutsideChanges: true } });
    expect(applyChecks(checks, rep('ok')).mark).toBe('pass');
    expect(applyChecks(checks, rep('ok', { outside: [] })).mark).toBe('pass');
    expect(applyChecks(checks, rep('ok', { outside: ['ships row 4 points at campaign c1', 'other'] }))).toEqual({
      mark: 'fail',
      reason: 'changed rows outside its campaign (ships row 4 points at campaign c1)',
    });
  });

  it('noOutsideChanges fails a rep whose changes outside its campaign could not be checked, saying why', () => {
    const checks = checksSchema.parse({ effects: { noOutsideChanges: true } });
    expect(applyChecks(checks, rep('ok', { outsideUnchecked: 'could not read' }))).toEqual({
      mark: 'fail',
      reason: 'changes outside its campaign could not be checked (could not read)',
    });
    // Even with an empty list of outside rows: an unchecked rep proves nothing.
    expect(applyChecks(checks, rep('ok', { outside: [], outsideUnchecked: 'could not read' })).mark).toBe('fail');
    // Listed with the other failures, in order.
    const both = checksSchema.parse({ mustContain: ['deck 2'], effects: { noOutsideChanges: true } });
    expect(applyChecks(both, rep('deck 3', { outsideUnchecked: 'could not read' })).reason).toBe(
      'does not contain "deck 2"; changes outside its campaign could not be checked (could not read)',
    );
    // Without the field and without outside rows, it passes.
    const plain = rep('ok');
    expect('outsideUnchecked' in plain).toBe(false);
    expect('outside' in plain).toBe(false);
    expect(applyChecks(checks, plain)).toEqual({ mark: 'pass', reason: '1 check(s) passed' });
    // A check that does not ask about outside changes does not look at the field.
    expect(
      applyChecks(checksSchema.parse({ mustContain: ['ok'] }), rep('ok', { outsideUnchecked: 'could not read' })).mark,
    ).toBe('pass');
  });

  it('marks an errored rep error with its cause, whatever the checks would say', () => {
    const checks = checksSchema.parse({ mustNotContain: ['anything'] });
    const errored = rep(null, {
      error: { stage: 'sut', cause: 'timeout', message: 'no answer within 30 s' },
      exit: null,
    });
    expect(applyChecks(checks, errored)).toEqual({ mark: 'error', reason: 'sut: timeout: no answer within 30 s' });
  });
});
