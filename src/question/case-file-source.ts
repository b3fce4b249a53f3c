import { HAND_WRITTEN_LIMIT, readInputText } from '../util/read-input.js';
import { relative, resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import type { CaseFileFunction } from '../config/schema.js';
import { shownPath } from '../util/shown-path.js';
import { TurnkitError } from '../errors.js';
import type { Fixture } from '../fixture/format.js';
import { renderCaseFile } from './case-file.js';
import type { LoadedQuestion } from './load-question.js';

/** The prefix of a question's `caseFile` that names a function of the config instead of a template file. */
const CONFIG_CASE_FILE = 'config:';

/** Where a question's case files come from: a Markdown template, or a function in turnkit.config.ts. */
export interface CaseFileSource {
  /** As the manifest records it: the template's path, or `CONFIG_FILE#NAME` (relative to the project). */
  path: string;
  /** What the manifest hashes and --resume compares: the template's text, or the function's source. */
  text: string;
  render(fixture: Fixture): Promise<string>;
}

/**
 * Resolves a question's `caseFile`: `config:NAME` is `caseFiles.NAME` of the config, a function given the fixture
 * and a `render(template)` for the placeholders; anything else is a template file relative to the project.
 */
export async function caseFileSource(question: LoadedQuestion, config: LoadedConfig): Promise<CaseFileSource> {
  const at = question.at(['caseFile']);
  const value = question.question.caseFile;
  if (value.startsWith(CONFIG_CASE_FILE)) {
    const name = value.slice(CONFIG_CASE_FILE.length);
    const fn = config.caseFiles[name];
    const configName = config.file ? shownPath(config.file) : 'the config';
    if (!fn) {
      const known = Object.keys(config.caseFiles);
      throw new TurnkitError(
        'BAD_INPUT',
        `${at}: no case-file function "${name}" in ${configName} (${known.length > 0 ? `it has ${known.join(', ')}` : 'it declares no caseFiles'})`,
      );
    }
    const path = `${config.file ? relative(config.baseDir, config.file).split('\\').join('/') : 'config'}#${name}`;
    return {
      path,
      text: fn.toString(),
      render: (fixture) => callCaseFile(fn, fixture, `${at}: the case-file function "${name}"`),
    };
  }
  const path = resolve(config.baseDir, value);
  const text = await readInputText(path, `${at}: ${shownPath(path)}`, HAND_WRITTEN_LIMIT);
  return {
    path: relative(config.baseDir, path).split('\\').join('/'),
    text,
    render: async (fixture) => renderCaseFile(text, fixture, shownPath(path)),
  };
}

async function callCaseFile(fn: CaseFileFunction, fixture: Fixture, where: string): Promise<string> {
  let rendered: unknown;
  try {
    rendered = await fn({
      fixture,
      turn: fixture.input.turn,
      input: fixture.input.values,
      render: (template) => renderCaseFile(template, fixture, `${where} (its template)`),
    });
  } catch (error) {
    // A placeholder error from render() already names the place; anything else is the function's own failure.
    if (error instanceof TurnkitError) throw error;
    throw new TurnkitError(
      'BAD_INPUT',
      `${where} failed for ${fixture.name}: ${(error as Error)?.message ?? String(error)}`,
    );
  }
  if (typeof rendered !== 'string' || rendered.trim() === '')
    throw new TurnkitError(
      'BAD_INPUT',
      `${where} returned ${typeof rendered === 'string' ? 'an empty string' : typeof rendered} for ${fixture.name}, not Markdown`,
    );
  return rendered;
}
