import { describe, expect, it } from 'vitest';
import { TurnkitError, exitCodeFor, isTurnkitError } from '../../src/errors.js';
import { KeptEditError } from '../../src/fixture/constructed/external-edit.js';

describe('TurnkitError', () => {
  it('is a TurnkitError and nothing else is; a subclass checks as classes do', () => {
    expect(isTurnkitError(new TurnkitError('IO', 'x'))).toBe(true);
    expect(new Error('x') instanceof TurnkitError).toBe(false);
    expect(isTurnkitError(new Error('x'))).toBe(false);
    expect((null as unknown as object) instanceof TurnkitError).toBe(false);
    expect({ code: 'IO', message: 'x', problems: [] } instanceof TurnkitError).toBe(false);
    const kept = new KeptEditError(new TurnkitError('IO', 'x'), '/tmp/kept.json');
    expect(kept instanceof TurnkitError).toBe(true);
    expect(kept instanceof KeptEditError).toBe(true);
    expect(new TurnkitError('IO', 'x') instanceof KeptEditError).toBe(false);
  });

  it('maps wrong usage to exit code 2 and every other failure to 1', () => {
    expect(exitCodeFor(new TurnkitError('USAGE', 'wrong'))).toBe(2);
    expect(exitCodeFor(new TurnkitError('IO', 'x'))).toBe(1);
    expect(exitCodeFor(new Error('bug'))).toBe(1);
  });

  it('has its code, name and problems as its own properties, the first problem its message', () => {
    const error = new TurnkitError('IO', 'x');
    expect(Object.keys(error).sort()).toEqual(['code', 'name', 'problems']);
    expect(error.problems).toEqual(['x']);
  });
});
