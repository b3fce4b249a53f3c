import { DATA_FILE_LIMIT, HAND_WRITTEN_LIMIT, readInputText } from '../util/read-input.js';
import { extname } from 'node:path';
import { closest } from 'fastest-levenshtein';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { parseDocument, isMap, isPair, isScalar, type Document } from 'yaml';
import type { z } from 'zod';
import { TurnkitError } from '../errors.js';
import { formatJsonPath, parseJsonText, positionAt } from '../util/json/json-source.js';
import { shownPath } from '../util/shown-path.js';
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
  const shown = shownPath(path);
  const text = await readInputText(path, shown, HAND_WRITTEN_LIMIT);
  const isJson = extname(path).toLowerCase() === '.json';
  const source = isJson ? jsonSource(text, shown) : yamlSource(text, shown);
  const result = questionSchema.safeParse(source.value);
  if (!result.success) {
    // A misspelled key also makes the real one "required": the unknown key, with its suggestion, comes first.
    const issues = [...result.error.issues].sort(
      (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
    );
    const problems = issues.map((issue) => describeIssue(issue, source, shown));
    throw new TurnkitError('BAD_INPUT', problems[0]!, problems);
  }
  return { question: result.data, path, shown, text, at: (at) => `${where(source, shown, at)}: ${formatJsonPath(at)}` };
}

/**
 * Reads a YAML or JSON file that belongs to a question (its known records), with a way to say where a value sits
 * (`file:line:col: $.path`), as the question's own messages do.
 */
export async function readQuestionData(
  path: string,
): Promise<{ value: unknown; shown: string; at(path: readonly PropertyKey[]): string }> {
  const shown = shownPath(path);
  const text = await readInputText(path, shown, DATA_FILE_LIMIT);
  const source = extname(path).toLowerCase() === '.json' ? jsonSource(text, shown) : yamlSource(text, shown);
  return { value: source.value, shown, at: (at) => `${where(source, shown, at)}: ${formatJsonPath(at)}` };
}

/** Where a question given as an object says it came from, in messages and in the manifest. */
export const QUESTION_OBJECT = '<question object>';

/**
 * Checks a question given as an object (a library caller's), as a file is checked; its SUT may be a function. Its
 * "text", hashed into the manifest so that a resume sees a changed question, is its JSON with functions as source.
 */
export function questionFromObject(value: unknown): LoadedQuestion {
  const result = questionObjectSchema.safeParse(value);
  const at = (path: readonly PropertyKey[]): string => `${QUESTION_OBJECT}: ${formatJsonPath(path)}`;
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${at(issue.path as PropertyKey[])}: ${issue.message}`);
    throw new TurnkitError('BAD_INPUT', problems[0]!, problems);
  }
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'function' ? String(item) : item), 2);
  return { question: result.data, path: QUESTION_OBJECT, shown: QUESTION_OBJECT, text, at };
}

/** A parsed document and a way to find where a path sits in its text. */
interface Source {
  value: unknown;
  /** Offset of the value at a path, or of a key itself when `key` is given. */
  offsetOf(path: readonly PropertyKey[], key?: string): number | undefined;
  text: string;
}

function yamlSource(text: string, shown: string): Source {
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
    text,
    offsetOf(path, key) {
      const node = path.length === 0 ? document.contents : document.getIn(path as unknown[], true);
      if (key !== undefined && isMap(node)) {
        const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key);
        const range = pair && isScalar(pair.key) ? pair.key.range : undefined;
        return range?.[0];
      }
      return (node as { range?: [number, number, number] } | undefined)?.range?.[0];
    },
  };
}

function jsonSource(text: string, shown: string): Source {
  const value = parseJsonText(text, shown);
  const tree = parseTree(text);
  return {
    value,
    text,
    offsetOf(path, key) {
      if (!tree) return undefined;
      const node = findNodeAtLocation(tree, path as (string | number)[]);
      if (key !== undefined) return node?.children?.find((child) => child.children?.[0]?.value === key)?.offset;
      return node?.offset;
    },
  };
}

function describeIssue(issue: z.core.$ZodIssue, source: Source, shown: string): string {
  const path = issue.path as PropertyKey[];
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const known = knownKeys(path);
    const hint = known.length > 0 ? ` (did you mean "${closest(key, known)}"?)` : '';
    return `${where(source, shown, path, key)}: ${formatJsonPath([...path, key])}: unknown key "${key}"${hint}`;
  }
  // zod says "Invalid input" for a key that is simply missing; say so.
  const message = valueAt(source.value, path) === undefined ? 'is required' : issue.message;
  return `${where(source, shown, path)}: ${formatJsonPath(path)}: ${message}`;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let node = value;
  for (const key of path)
    node = typeof node === 'object' && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined;
  return node;
}

function where(source: Source, shown: string, path: readonly PropertyKey[], key?: string): string {
  // The nearest enclosing value that exists (a missing key points at its parent object).
  for (let depth = path.length; depth >= 0; depth--) {
    const offset = source.offsetOf(path.slice(0, depth), depth === path.length ? key : undefined);
    if (offset !== undefined) {
      const { line, column } = positionAt(source.text, offset);
      return `${shown}:${line}:${column}`;
    }
  }
  return shown;
}

// The keys a question accepts at a path, for "did you mean".
function knownKeys(path: readonly PropertyKey[]): string[] {
  const top = Object.keys(questionSchema.shape);
  if (path.length === 0) return top;
  if (path[0] === 'rubric') return ['path', 'version'];
  if (path[0] === 'sut')
    return [
      'type',
      'command',
      'cwd',
      'env',
      'timeout',
      'maxOutput',
      'path',
      'export',
      'baseUrl',
      'model',
      'apiKeyEnv',
      'system',
      'temperature',
    ];
  if (path[0] === 'fixtures') return ['path', 'tag', 'skip'];
  if (path[0] === 'knownRecords')
    return path.length <= 2 ? ['about', 'fixture', 'response', 'toolCalls', 'effects', 'outside', 'expect'] : [];
  if (path[0] === 'players')
    return [
      'type',
      'inputs',
      'byFixture',
      'baseUrl',
      'model',
      'apiKeyEnv',
      'persona',
      'temperature',
      'timeout',
      'command',
      'cwd',
    ];
  return [];
}
