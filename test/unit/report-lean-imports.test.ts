import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedBefore as loadedFrom } from '../helpers/static-imports.js';

const SRC = resolve(import.meta.dirname, '../../src');

// `turnkit report RUN` loads what its modules import before they run (their static value imports) and, lazily, what
// its action asks for. It once loaded 233 modules, 95 of them zod's, pg and every SUT kind: the manifest's schema and
// a price function pulled them in. Zod, pg, the SUT kinds and the database layer are now loaded only when a
// report needs them (a manifest its lean shape refuses, --calibration): this walks the static imports from the
// command and what its action loads, in the sources, so that a new import that pulls them back in fails here.

const loadedBefore = (entries: readonly string[]) => loadedFrom(SRC, entries);

// The report command's module, and what its action imports (cli/commands/report.ts).
const REPORT = ['cli/commands/report.ts', 'app/report-formats.ts', 'app/files-context.ts', 'report/outcome.ts'];

describe('turnkit report loads no schema library, database or SUT kind before it needs one', () => {
  it('finds the report command and the modules it reads a run with', () => {
    const { files, packages } = loadedBefore(REPORT);
    expect(files.has('run-dir/run-state.ts')).toBe(true);
    expect(files.has('run-dir/lean-shapes.ts')).toBe(true);
    expect(packages.has('commander')).toBe(true);
  });

  it('no zod or pg; no SUT kind, database module, config loader or zod schema module', () => {
    const { files, packages } = loadedBefore(REPORT);
    expect([...packages].filter((name) => ['zod', 'pg', 'kysely'].includes(name))).toEqual([]);
    const heavy = [...files].filter(
      (file) =>
        // sut-answer.ts reads usage and cost from an answer (spend.ts re-exports it): no kind, no package.
        (file.startsWith('sut/') && file !== 'sut/sut-answer.ts') ||
        file.startsWith('db/') ||
        file.startsWith('config/') ||
        ['run-dir/manifest.ts', 'run-dir/spend-schema.ts', 'run-dir/screens-schema.ts'].includes(file) ||
        file === 'app/command-context.ts',
    );
    expect(heavy).toEqual([]);
  });

  it('no csv-stringify or jsonc-parser (marks are only read; JSON.parse reads every valid file) and no node:crypto', () => {
    const { files, packages } = loadedBefore(REPORT);
    expect([...packages].filter((name) => ['csv-stringify', 'jsonc-parser'].includes(name))).toEqual([]);
    // sha256.ts and temp-names.ts (writers' hashes and temporary names) are what imported node:crypto.
    expect([...files].filter((file) => ['util/sha256.ts', 'util/process/temp-names.ts'].includes(file))).toEqual([]);
  });

  it('the walk sees what the manifest schema pulls in (so the check above can fail)', () => {
    const { files, packages } = loadedBefore([
      'run-dir/manifest.ts',
      'pipeline/run-limits.ts',
      // pg through a chain of imports (opening a project connects), not from a file that imports it itself.
      'project/open-project.ts',
    ]);
    expect(packages.has('zod')).toBe(true);
    expect(packages.has('pg')).toBe(true);
    expect(files.has('sut/sut-kinds.ts')).toBe(true);
  });
});
