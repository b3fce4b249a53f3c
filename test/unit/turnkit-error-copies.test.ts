import { describe, expect, it, vi } from 'vitest';
import { TurnkitError, exitCodeFor, isTurnkitError } from '../../src/errors.js';
import { KeptEditError } from '../../src/fixture/constructed/external-edit.js';

// The command line is a bundle of its own (scripts/build-cli.mjs); a config file importing from 'turnkit' gets the
// library's copy of errors.ts. An error from either copy must be a TurnkitError to the other.
describe('TurnkitError across copies of its module', () => {
  it('an error of another copy of the class is a TurnkitError here, and the other way round', async () => {
    vi.resetModules();
    // A query makes the module runner evaluate the file again: a second copy of the class, as the bundle has.
    const another = '../../src/errors.js?copy';
    const copy = (await import(another)) as typeof import('../../src/errors.js');
    expect(copy.TurnkitError).not.toBe(TurnkitError);
    const theirs = new copy.TurnkitError('USAGE', 'wrong');
    expect(theirs instanceof TurnkitError).toBe(true);
    expect(isTurnkitError(theirs)).toBe(true);
    expect(exitCodeFor(theirs)).toBe(2);
    expect(new TurnkitError('IO', 'x') instanceof copy.TurnkitError).toBe(true);
  });

  it('is not anything else, and a subclass checks as classes do', () => {
    expect(new Error('x') instanceof TurnkitError).toBe(false);
    expect((null as unknown as object) instanceof TurnkitError).toBe(false);
    expect(Object.create(null) instanceof TurnkitError).toBe(false);
    expect({ code: 'IO', message: 'x', problems: [] } instanceof TurnkitError).toBe(false);
    const kept = new KeptEditError(new TurnkitError('IO', 'x'), '/tmp/kept.json');
    expect(kept instanceof TurnkitError).toBe(true);
    expect(kept instanceof KeptEditError).toBe(true);
    expect(new TurnkitError('IO', 'x') instanceof KeptEditError).toBe(false);
  });

  it('shows no brand among its own properties', () => {
    const error = new TurnkitError('IO', 'x');
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(Object.keys(error).sort()).toEqual(['code', 'name', 'problems']);
  });
});
