import { showingPathsFrom } from '../util/shown-path.js';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { extname, join, relative, resolve } from 'node:path';
import { isTurnkitError, TurnkitError } from '../errors.js';
import {
  verifyConfigAgainstDatabase,
  verifyFixtures,
  type VerifyInput,
  type VerifyResult,
} from '../fixture/verify-fixtures.js';
import { inputDir, type ProjectContext } from '../project/project-context.js';
import { loadQuestion } from '../question/load-question.js';
import { resolveFixtures } from './resolve-fixtures.js';
import { caseFileSource } from '../question/case-file-source.js';
import { checkSutFound } from '../sut/call-sut.js';
import { checkRunSize } from '../question/rep-limits.js';
import { checkGameTables } from '../checks/checks-tables.js';
import { checkKnownRecords } from './known-records.js';
import { lenientJson } from '../util/json/json-source.js';

/**
 * `turnkit verify`: fixtures and constructed fixtures (see `verify`) and questions, each checked as `run` would
 * before its first rep: the file's schema, its fixtures (paths, globs, each one loading), its rubric and template,
 * and that its SUT's command or module is there.
 * Default: the fixtures, constructed and questions folders.
 * @example
 * const { problems } = await verify(project, { database: true });
 */
export async function verify(project: ProjectContext, options: VerifyInput): Promise<VerifyResult> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    const { config } = project;
    const cwd = project.cwd ?? project.paths.baseDir;
    const defaults = [project.paths.fixtures, project.paths.constructed, project.paths.questions].filter((path) =>
      existsSync(path),
    );
    const targets =
      options.paths && options.paths.length > 0 ? options.paths.map((path) => resolve(cwd, path)) : defaults;
    const problems: string[] = [];
    const fixtureFiles: string[] = [];
    const questionFiles: string[] = [];
    for (const target of targets) {
      if (!existsSync(target)) {
        problems.push(`${relative(cwd, target) || target}: no such file or folder`);
        continue;
      }
      const files = statSync(target).isDirectory()
        ? (await readdir(target)).sort().map((name) => join(target, name))
        : [target];
      for (const file of files) {
        if (file.endsWith('.schema.json') || (files.length > 1 && !/\.(json|ya?ml)$/i.test(file))) continue;
        (isQuestionFile(file) ? questionFiles : fixtureFiles).push(file);
      }
    }
    const result: VerifyResult =
      fixtureFiles.length > 0
        ? await verifyFixtures(project, { ...options, paths: fixtureFiles })
        : { files: [], problems: options.database ? await verifyConfigAgainstDatabase(project) : [] };
    result.problems.unshift(...problems);
    for (const file of questionFiles) {
      const shown = relative(cwd, file) || file;
      try {
        const question = await loadQuestion(file);
        const notes: string[] = [];
        const fixtures = await resolveFixtures(question, config.baseDir, { onEmptyGlob: (note) => notes.push(note) });
        checkRunSize(fixtures.length, question.question.reps, question.at(['reps']));
        checkGameTables(
          question,
          fixtures.map(({ loaded }) => loaded.fixture),
        );
        const known = await checkKnownRecords(question);
        if (known.records > 0) notes.push(`${known.records} known record(s) give the expected screen results`);
        notes.push(...known.warnings.map((warning) => warning.replace(/^.*?: screen /, 'screen ')));
        const rubric = question.question.rubric.path;
        if (!existsSync(resolve(config.baseDir, rubric)))
          throw new TurnkitError('NOT_FOUND', `${question.at(['rubric', 'path'])}: ${rubric}: no such file`);
        await caseFileSource(question, config);
        checkSutFound(question, config.baseDir, options.env);
        result.files.push({ file: shown, ok: true, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) });
      } catch (error) {
        if (!isTurnkitError(error)) throw error;
        result.files.push({ file: shown, ok: false });
        result.problems.push(...error.problems);
      }
    }
    return result;
  });
}

// YAML is always a question; a JSON file is one when it has a question and no format (fixtures declare theirs).
function isQuestionFile(file: string): boolean {
  const extension = extname(file).toLowerCase();
  if (extension === '.yaml' || extension === '.yml') return true;
  if (extension !== '.json') return false;
  try {
    // Read leniently: a file that does not read (or read as JSON) is verified as a fixture, whose reader names why.
    const value = lenientJson(readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null && !('format' in value) && 'question' in value;
  } catch {
    return false;
  }
}
