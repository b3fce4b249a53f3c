import { DATA_FILE_LIMIT, HAND_WRITTEN_LIMIT, readInputText } from '../util/read-input.js';
import { extname } from 'node:path';
import { parseDocument, isMap, isPair, isScalar, type Document } from 'yaml';
import { issueLines, jsonLocator, placeOf, type Locator } from '../config/issue-lines.js';
import { TurnkitError } from '../errors.js';
import { formatJsonPath, parseJsonText, positionAt } from '../util/json/json-source.js';
import { shownPath } from '../util/shown-path.js';
import { safeParseInWords } from '../util/zod-messages.js';
import { yamlValue } from '../util/yaml-value.js';
import { questionObjectSchema, questionSchema, type Question } from './question-format.js';

/** A question read and checked, with the file it came from. */
export interface LoadedQuestion {
  question: Question;
  path: string;
  shown: string;
  /** The file's bytes, for the manifest's hash. */
  text: string;
  /** Where a value of the question sits, as `file:line:col: $.path` (for errors found after loading). */
  at(path: readonly PropertyKey[]): string;
}

/**
 * Reads `questions/ID.yaml` or `.json` and checks it. Every problem is one line `file:line:col: $.path: message`;
 * an unknown key names the known key it most resembles ("comand": did you mean "command"?).
 */
export async function loadQuestion(path: string): Promise<LoadedQuestion> {
  const document = await readDocument(path, HAND_WRITTEN_LIMIT);
  const result = safeParseInWords(questionSchema, document.value);
  if (!result.success) {
    const problems = issueLines(result.error.issues, document, questionSchema);
    throw new TurnkitError('BAD_INPUT', problems[0]!, problems);
  }
  const { shown, text, at } = document;
  return { question: result.data, path, shown, text, at };
}

/**
 * Reads a YAML or JSON file that belongs to a question (its known records), with a way to say where a value sits
 * (`file:line:col: $.path`), as the question's own messages do.
 */
export async function readQuestionData(
  path: string,
): Promise<{ value: unknown; shown: string; at(path: readonly PropertyKey[]): string }> {
  const { value, shown, at } = await readDocument(path, DATA_FILE_LIMIT);
  return { value, shown, at };
}

/** Where a question given as an object says it came from, in messages and in the manifest. */
export const QUESTION_OBJECT = '<question object>';

/**
 * Checks a question given as an object (a library caller's), as a file is checked; its SUT may be a function. Its
 * "text", hashed into the manifest so that a resume sees a changed question, is its JSON with functions as source.
 */
export function questionFromObject(value: unknown): LoadedQuestion {
  const result = safeParseInWords(questionObjectSchema, value);
  const at = (path: readonly PropertyKey[]): string => `${QUESTION_OBJECT}: ${formatJsonPath(path)}`;
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${at(issue.path as PropertyKey[])}: ${issue.message}`);
    throw new TurnkitError('BAD_INPUT', problems[0]!, problems);
  }
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'function' ? String(item) : item), 2);
  return { question: result.data, path: QUESTION_OBJECT, shown: QUESTION_OBJECT, text, at };
}

// A YAML or JSON file (by its extension) read and parsed, with where each of its values is written.
async function readDocument(
  path: string,
  limit: number,
): Promise<{ value: unknown; text: string; shown: string; locate: Locator; at(path: readonly PropertyKey[]): string }> {
  const shown = shownPath(path);
  const text = await readInputText(path, shown, limit);
  const { value, locate } =
    extname(path).toLowerCase() === '.json'
      ? { value: parseJsonText(text, shown), locate: jsonLocator(text) }
      : parseYaml(text, shown);
  return { value, text, shown, locate, at: (at) => `${placeOf(shown, text, locate, at)}: ${formatJsonPath(at)}` };
}

function parseYaml(text: string, shown: string): { value: unknown; locate: Locator } {
  const document: Document = parseDocument(text, { prettyErrors: false });
  const error = document.errors[0];
  if (error) {
    const { line, column } = positionAt(text, error.pos[0]);
    throw new TurnkitError(
      'BAD_INPUT',
      `${shown}:${line}:${column}: invalid YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+.*$/, '')}`,
    );
  }
  return {
    value: yamlValue(document, text, shown),
    locate(path, key) {
      const node = path.length === 0 ? document.contents : document.getIn(path as unknown[], true);
      if (key !== undefined && isMap(node)) {
        const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key);
        return pair && isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      }
      return (node as { range?: [number, number, number] } | undefined)?.range?.[0];
    },
  };
}
