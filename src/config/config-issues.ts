import { closest } from 'fastest-levenshtein';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { z } from 'zod';
import { TurnkitError } from '../errors.js';
import { formatJsonPath, positionAt } from '../util/json/json-source.js';
import { configSchema, type TurnkitConfig } from './schema.js';

/**
 * Checks a config's value against the schema. Every problem is one line `file:line:col: $.path: message`, as a
 * question's are; an unknown key names the known key it most resembles ("tabel": did you mean "table"?). The place
 * is exact in a JSON config; in a .ts or .js config it is where the key is first written along its path.
 */
export function parseConfigValue(
  value: unknown,
  text: string | undefined,
  shown: string,
  json: boolean,
): TurnkitConfig {
  const result = configSchema.safeParse(value);
  if (result.success) return result.data;
  // A misspelled key also makes the real one "required": the unknown key, with its suggestion, comes first.
  const issues = [...result.error.issues].sort(
    (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
  );
  const locate = text === undefined ? () => undefined : json ? jsonLocator(text) : sourceLocator(text);
  const problems = issues.map((issue) => {
    const path = issue.path as PropertyKey[];
    const key = issue.code === 'unrecognized_keys' ? issue.keys[0]! : undefined;
    const offset = nearest(locate, path, key);
    const at =
      offset !== undefined && text !== undefined
        ? `${shown}:${positionAt(text, offset).line}:${positionAt(text, offset).column}`
        : shown;
    if (key !== undefined) {
      const known = knownKeys(path);
      const hint = known.length > 0 ? ` (did you mean "${closest(key, known)}"?)` : '';
      return `${at}: ${formatJsonPath([...path, key])}: unknown key "${key}"${hint}`;
    }
    return `${at}: ${formatJsonPath(path)}: ${valueAt(value, path) === undefined ? 'is required' : issue.message}`;
  });
  throw new TurnkitError('BAD_INPUT', problems[0]!, problems);
}

/**
 * Where a path is written in a config's text: its key (an array item: the item), or the nearest enclosing place that
 * can be found; undefined when none can. A .ts or .js config is read as one object literal, as for schema problems.
 */
export function locateConfigKey(text: string, json: boolean, path: readonly PropertyKey[]): number | undefined {
  if (!json) return nearest(sourceLocator(text), path);
  const tree = parseTree(text);
  for (let depth = path.length; tree && depth >= 0; depth--) {
    const node = findNodeAtLocation(tree, path.slice(0, depth) as (string | number)[]);
    if (node) return node.parent?.type === 'property' ? node.parent.offset : node.offset;
  }
  return undefined;
}

type Locator = (path: readonly PropertyKey[], key?: string) => number | undefined;

// The nearest enclosing value that can be found (a missing key points at its parent object).
function nearest(locate: Locator, path: readonly PropertyKey[], key?: string): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const offset = locate(path.slice(0, depth), depth === path.length ? key : undefined);
    if (offset !== undefined) return offset;
  }
  return undefined;
}

function jsonLocator(text: string): Locator {
  const tree = parseTree(text);
  return (path, key) => {
    if (!tree) return undefined;
    const node = findNodeAtLocation(tree, path as (string | number)[]);
    if (key !== undefined) return node?.children?.find((child) => child.children?.[0]?.value === key)?.offset;
    return node?.offset;
  };
}

/**
 * A .ts or .js config is code, not data: the place of a path is found by reading its keys in order in the text
 * (`game`, then `turns` after it, ...). Good for configs written as one object literal, which defineConfig invites.
 */
function sourceLocator(text: string): Locator {
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

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let node = value;
  for (const key of path)
    node = typeof node === 'object' && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined;
  return node;
}

// The keys the config accepts at a path, read from its schema, for "did you mean".
function knownKeys(path: readonly PropertyKey[]): string[] {
  let schema: z.ZodType | undefined = configSchema;
  for (const segment of path) {
    schema = unwrap(schema);
    if (schema instanceof z.ZodObject) schema = (schema.shape as Record<string, z.ZodType>)[String(segment)];
    else if (schema instanceof z.ZodArray) schema = schema.element as z.ZodType;
    else if (schema instanceof z.ZodRecord) schema = schema.valueType as z.ZodType;
    else return [];
  }
  schema = unwrap(schema);
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

// Defaults and optionals wrap the object a key belongs to.
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let inner = schema;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  return inner;
}
