import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { introspect } from '../db/introspect.js';
import { isTurnkitError } from '../errors.js';
import { checkAgainstCatalog } from '../fixture/check-catalog.js';
import type { Fixture } from '../fixture/format.js';
import { problemsBeyondSchema } from '../fixture/partial-check.js';
import { parseJsonText } from '../util/json-source.js';
import { loadFixture } from '../fixture/load-fixture.js';
import { withProjectDb, type ProjectContext } from '../project/project-context.js';
import { checkScrubbed } from '../fixture/scrub/verify-scrubbed.js';

/** What to verify. */
export interface VerifyInput {
  /** Files or folders; default the config's fixtures and constructed folders. */
  paths?: string[] | undefined;
  /** Also check every table and column against the connected database. */
  database?: boolean | undefined;
  /** The environment a question's command SUT would be looked up on PATH in (the command line's is the process's). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** Per-file outcome and every problem found, one line each. */
export interface VerifyResult {
  /** Each file verified; `note` says what verify let pass that run would not (a glob that matches nothing yet). */
  files: { file: string; ok: boolean; note?: string }[];
  problems: string[];
}

/**
 * Validates fixture and constructed fixture files: JSON syntax (file:line:col), the format's schema (file: $.path),
 * referential checks, and for a constructed fixture its base's hash, the single-turn rule and every old value.
 */
export async function verifyFixtures(project: ProjectContext, options: VerifyInput): Promise<VerifyResult> {
  const { config } = project;
  const cwd = project.cwd ?? project.paths.baseDir;
  const defaults = [project.paths.fixtures, project.paths.constructed].filter((path) => existsSync(path));
  const targets =
    options.paths && options.paths.length > 0 ? options.paths.map((path) => resolve(cwd, path)) : defaults;
  const files: VerifyResult['files'] = [];
  const problems: string[] = [];
  const valid: { file: string; fixture: Fixture }[] = [];
  for (const file of await expandPaths(targets, problems, cwd)) {
    const shown = relative(cwd, file) || file;
    try {
      const loaded = await loadFixture(file);
      valid.push({ file: shown, fixture: loaded.fixture });
      // A captured fixture holding what looks personal or secret, with no rule applied: the capture detector's verdict.
      const sensitive = loaded.constructed ? [] : checkScrubbed(loaded.fixture, config.scrub, shown);
      files.push({ file: shown, ok: sensitive.length === 0 });
      problems.push(...sensitive);
    } catch (error) {
      if (!isTurnkitError(error)) throw error;
      files.push({ file: shown, ok: false });
      problems.push(...error.problems, ...(await beyondSchema(file, shown, error.problems)));
    }
  }
  if (options.database && valid.length > 0) {
    const catalog = await withProjectDb(project, (db) => introspect(db.pool));
    for (const { file, fixture } of valid) {
      const found = checkAgainstCatalog(fixture, catalog, file);
      if (found.length > 0) files.find((entry) => entry.file === file)!.ok = false;
      problems.push(...found);
    }
  }
  return { files, problems };
}

// A file the schema refuses is also checked for what else is wrong with it, where the schema's problems allow.
async function beyondSchema(file: string, shown: string, already: readonly string[]): Promise<string[]> {
  try {
    const found = problemsBeyondSchema(parseJsonText(await readFile(file, 'utf8'), shown), shown);
    return found.filter((problem) => !already.includes(problem));
  } catch {
    return [];
  }
}

async function expandPaths(targets: string[], problems: string[], cwd: string): Promise<string[]> {
  const files: string[] = [];
  for (const target of targets) {
    if (!existsSync(target)) {
      problems.push(`${relative(cwd, target) || target}: no such file or folder`);
      continue;
    }
    if (statSync(target).isDirectory()) {
      const names = (await readdir(target))
        .filter((name) => name.endsWith('.json') && !name.endsWith('.schema.json'))
        .sort();
      files.push(...names.map((name) => join(target, name)));
    } else {
      files.push(target);
    }
  }
  return files;
}
