import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { TurnkitError } from '../errors.js';
import { loadFixture, type LoadedFixture } from '../fixture/load-fixture.js';
import type { LoadedQuestion } from '../question/load-question.js';
import type { RunUpgrade } from '../upgrade/upgrade-for-run.js';

/** One fixture of a question, loaded (a constructed one materialized) with its tag. */
export interface QuestionFixture {
  loaded: LoadedFixture;
  tag?: 'dev' | 'heldout' | undefined;
  /** Screens the question's entry skips for this fixture (unscored on its reps). */
  skip?: string[] | undefined;
  /** `run --upgrade`: the cached copy `loaded.fixture` now holds, the fixture's file being behind the schema. */
  upgraded?: RunUpgrade | undefined;
}

/**
 * The question's fixtures: paths and globs relative to the project folder, in the order written (a glob's matches
 * sorted). A path that does not exist, a glob that matches nothing, or two entries with one fixture name (their rep
 * files would collide) is an error naming the question file and the entry.
 */
export async function resolveFixtures(
  question: LoadedQuestion,
  projectDir: string,
  options: { onEmptyGlob?: (message: string) => void } = {},
): Promise<QuestionFixture[]> {
  const fixtures: QuestionFixture[] = [];
  const seen = new Map<string, string>();
  for (const [index, entry] of question.question.fixtures.entries()) {
    const pattern = typeof entry === 'string' ? entry : entry.path;
    const tag = typeof entry === 'string' ? undefined : entry.tag;
    const skip = typeof entry === 'string' ? undefined : entry.skip;
    const at = question.at(typeof entry === 'string' ? ['fixtures', index] : ['fixtures', index, 'path']);
    let files: string[];
    if (isDynamicPattern(pattern)) {
      files = (await glob(pattern, { cwd: projectDir, absolute: true, onlyFiles: true }))
        // Nor the schema snapshots capture keeps beside the fixtures (schemas/FINGERPRINT-mN.json).
        .filter((file) => !file.endsWith('.schema.json') && !/[\\/]schemas[\\/][0-9a-f]{16}(-m\d+)?\.json$/.test(file))
        .sort();
      if (files.length === 0) {
        // verify takes a glob that matches nothing yet (a new project before its first capture); run does not.
        if (!options.onEmptyGlob) throw new TurnkitError('BAD_INPUT', `${at}: "${pattern}" matches no file`);
        options.onEmptyGlob(`"${pattern}" matches no file yet`);
      }
    } else {
      const file = resolve(projectDir, pattern);
      if (!existsSync(file)) throw new TurnkitError('NOT_FOUND', `${at}: ${pattern}: no such file`);
      if (statSync(file).isDirectory())
        throw new TurnkitError(
          'BAD_INPUT',
          `${at}: ${pattern}: is a folder; name its files with a glob like ${pattern.replace(/\/+$/, '')}/*.json`,
        );
      files = [file];
    }
    for (const file of files) {
      // A fixture that does not load is the question's problem as much as the file's: name both.
      const loaded = await loadFixture(file).catch((error: unknown) => {
        if (error instanceof TurnkitError)
          throw new TurnkitError(
            error.code,
            `${at}: ${error.message}`,
            error.problems.map((line) => `${at}: ${line}`),
          );
        throw error;
      });
      const name = loaded.fixture.name;
      if (seen.has(name))
        throw new TurnkitError(
          'BAD_INPUT',
          `${at}: fixture "${name}" (${loaded.shown}) is already in the question (${seen.get(name)})`,
        );
      seen.set(name, loaded.shown);
      fixtures.push({ loaded, tag, ...(skip && skip.length > 0 ? { skip } : {}) });
    }
  }
  return fixtures;
}
