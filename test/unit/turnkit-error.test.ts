import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { TurnkitError, exitCodeFor, isTurnkitError } from '../../src/errors.js';
import { KeptEditError } from '../../src/fixture/constructed/external-edit.js';
import { importModule } from '../../src/util/import-module.js';

describe('TurnkitError', () => {
  // A TypeScript config is loaded through tsx's tsImport, which gives what it imports a namespace of its own: its
  // `import { TurnkitError } from 'turnkit'` is a second copy of the class. An error of either copy is one to both.
  it("an error made by a TypeScript config's copy of the class is a TurnkitError here, and the other way round", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'turnkit-error-'));
    try {
      const config = join(dir, 'config.ts');
      const errors = pathToFileURL(join(import.meta.dirname, '../../src/errors.ts')).href;
      await writeFile(
        config,
        `import { TurnkitError } from '${errors}';\nexport const Theirs = TurnkitError;\nexport const make = (): unknown => new TurnkitError('USAGE', 'wrong');\n`,
      );
      const loaded = (await importModule(config)) as { Theirs: typeof TurnkitError; make: () => unknown };
      expect(loaded.Theirs).not.toBe(TurnkitError);
      const theirs = loaded.make();
      expect(theirs instanceof TurnkitError).toBe(true);
      expect(isTurnkitError(theirs)).toBe(true);
      expect(exitCodeFor(theirs)).toBe(2);
      expect(new TurnkitError('IO', 'x') instanceof loaded.Theirs).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('holds across two copies of its module however they were made', async () => {
    vi.resetModules();
    // A query makes the module runner evaluate the file again: a second copy of the class.
    const another = '../../src/errors.js?copy';
    const copy = (await import(another)) as typeof import('../../src/errors.js');
    expect(copy.TurnkitError).not.toBe(TurnkitError);
    expect(new copy.TurnkitError('USAGE', 'wrong') instanceof TurnkitError).toBe(true);
    expect(new TurnkitError('IO', 'x') instanceof copy.TurnkitError).toBe(true);
  });

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

  it('has its code, name and problems as its own properties (no brand among them), the first problem its message', () => {
    const error = new TurnkitError('IO', 'x');
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(Object.keys(error).sort()).toEqual(['code', 'name', 'problems']);
    expect(error.problems).toEqual(['x']);
  });
});
