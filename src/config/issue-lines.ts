import { distance } from 'fastest-levenshtein';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { z } from 'zod';
import { formatJsonPath, positionAt } from '../util/json/json-source.js';

/** Where a path is written in a document's text: the offset of its value, or of `key` inside it when given. */
export type Locator = (path: readonly PropertyKey[], key?: string) => number | undefined;

/**
 * A JSON document's locator. With `atProperty`, a value inside an object is found at its key (a place in the config
 * that only the database shows to be wrong is named at the key, as a schema problem reads).
 */
export function jsonLocator(text: string, atProperty = false): Locator {
  const tree = parseTree(text);
  return (path, key) => {
    if (!tree) return undefined;
    const node = findNodeAtLocation(tree, path as (string | number)[]);
    if (key !== undefined) return node?.children?.find((child) => child.children?.[0]?.value === key)?.offset;
    return atProperty && node?.parent?.type === 'property' ? node.parent.offset : node?.offset;
  };
}

/**
 * A .ts or .js config is code, not data: the place of a path is found by reading its keys in order in the text
 * (`game`, then `turns` after it, ...). Good for configs written as one object literal, which defineConfig invites.
 */
export function sourceLocator(text: string): Locator {
  return (path, key) => {
    const keys = [...path, ...(key !== undefined ? [key] : [])].filter(
      (segment): segment is string => typeof segment === 'string',
    );
    if (keys.length === 0) return undefined;
    let from = 0;
    let found: number | undefined;
    for (const segment of keys) {
      const pattern = new RegExp(`(^|[^\\w$])(["']?)${segment.replace(/[$]/g, '\\$')}\\2\\s*:`, 'g');
      pattern.lastIndex = from;
      const match = pattern.exec(text);
      if (!match) return undefined;
      found = match.index + match[1]!.length;
      from = found + 1;
    }
    return found;
  };
}

/** `file:line:col` of the nearest enclosing value that can be found (a missing key: its parent), else `file`. */
export function placeOf(
  shown: string,
  text: string | undefined,
  locate: Locator,
  path: readonly PropertyKey[],
  key?: string,
): string {
  for (let depth = path.length; text !== undefined && depth >= 0; depth--) {
    const offset = locate(path.slice(0, depth), depth === path.length ? key : undefined);
    if (offset !== undefined) {
      const { line, column } = positionAt(text, offset);
      return `${shown}:${line}:${column}`;
    }
  }
  return shown;
}

/**
 * A schema's issues with a document (a question, a config), one line each `file:line:col: $.path: message`. An
 * unknown key names the known key it resembles, when one is near ("comand": did you mean "command"?), and comes first: a
 * misspelled key also makes the real one "required".
 */
export function issueLines(
  issues: readonly z.core.$ZodIssue[],
  document: { value: unknown; text: string | undefined; shown: string; locate: Locator },
  schema: z.ZodType,
): string[] {
  const { value, text, shown, locate } = document;
  const sorted = [...issues].sort(
    (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
  );
  return sorted.map((issue) => {
    const path = issue.path as PropertyKey[];
    if (issue.code === 'unrecognized_keys') {
      const key = issue.keys[0]!;
      const hint = didYouMean(key, keysAt(schema, path));
      return `${placeOf(shown, text, locate, path, key)}: ${formatJsonPath([...path, key])}: unknown key "${key}"${hint}`;
    }
    // zod says "Invalid input" for a key that is simply missing; say so.
    const message = valueAt(value, path) === undefined ? 'is required' : issue.message;
    return `${placeOf(shown, text, locate, path)}: ${formatJsonPath(path)}: ${message}`;
  });
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let node = value;
  for (const key of path)
    node = typeof node === 'object' && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined;
  return node;
}

/**
 * The keys a schema accepts for the object at a path, for "did you mean": read through optionals, defaults, lazies
 * and pipes; a union's keys are all its options' (a SUT of any kind), so the list never goes stale beside the schema.
 */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodUnion)
    return [...new Set(inner.options.flatMap((option) => keysAt(option as z.ZodType, path)))];
  if (path.length === 0) return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
  const [segment, ...rest] = path;
  if (inner instanceof z.ZodObject) {
    const next = (inner.shape as Record<string, z.ZodType | undefined>)[String(segment)];
    return next ? keysAt(next, rest) : [];
  }
  if (inner instanceof z.ZodArray) return keysAt(inner.element as z.ZodType, rest);
  if (inner instanceof z.ZodRecord) return keysAt(inner.valueType as z.ZodType, rest);
  return [];
}

// What wraps the object a key belongs to. A pipe is a transform after its schema, or a preprocess before it.
function unwrap(schema: z.ZodType): z.ZodType {
  let inner = schema;
  for (;;) {
    if (
      inner instanceof z.ZodDefault ||
      inner instanceof z.ZodOptional ||
      inner instanceof z.ZodNullable ||
      inner instanceof z.ZodLazy
    )
      inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodPipe)
      inner = (inner.in instanceof z.ZodTransform ? inner.out : inner.in) as z.ZodType;
    else return inner;
  }
}

/**
 * ` (did you mean "X"?)` for a name turnkit does not know (a table or column the database lacks, a key a file may
 * not hold): a known name that differs only in case or schema prefix, else the closest by edit distance when it is
 * close enough to be a typo; empty when nothing is near.
 */
export function didYouMean(name: string, known: readonly string[]): string {
  const bare = (value: string): string => value.toLowerCase().replace(/^public\./, '');
  const same = known.find((candidate) => bare(candidate) === bare(name) || bare(candidate).endsWith(`.${bare(name)}`));
  if (same) return ` (did you mean "${same}"?)`;
  // A name cut short or ended differently ("turn_no" for "turn_number") is a typo edit distance would miss: the one
  // known name that shares more than half of it as a prefix.
  const shared = (candidate: string): number => {
    let at = 0;
    while (at < name.length && bare(candidate)[at] === bare(name)[at]) at++;
    return at;
  };
  const prefixed = known.filter((candidate) => shared(candidate) >= 4 && shared(candidate) * 2 > name.length);
  if (prefixed.length === 1) return ` (did you mean "${prefixed[0]}"?)`;
  if (known.length === 0) return '';
  // The nearest by edit distance; of equals, the one closest in length ("siad" is "said" swapped, not "id").
  const scored = known.map((candidate) => ({
    candidate,
    edits: distance(bare(name), bare(candidate)),
    length: Math.abs(candidate.length - name.length),
  }));
  const best = scored.sort((a, b) => a.edits - b.edits || a.length - b.length)[0]!;
  // A third of the name's length (at least two edits): "campains" finds "campaigns", "xyz" finds nothing.
  return best.edits <= Math.max(2, Math.floor(name.length / 3)) ? ` (did you mean "${best.candidate}"?)` : '';
}
