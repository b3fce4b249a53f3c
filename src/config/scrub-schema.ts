import { z } from 'zod';
import { parseJsonPath, type JsonPathStep } from '../util/json/json-path.js';

/** The fakes a scrub rule can name: each keeps the shape a game reads. */
const FAKE_KINDS = ['email', 'name', 'username', 'ip', 'uuid', 'text'] as const;
/** A fake kind. */
export type FakeKind = (typeof FAKE_KINDS)[number];
/** What free-text redaction replaces inside a text value. */
const REDACT_KINDS = ['email', 'phone', 'ip', 'address', 'birth', 'names'] as const;
/** A kind of free-text redaction. */
export type RedactKind = (typeof REDACT_KINDS)[number];

/** What a function rule is given besides the value: the whole row (as captured) and a keyed digest. */
export interface ScrubFunctionContext {
  table: string;
  column: string;
  /** A keyed hex digest of a text (needs the scrub key): deterministic, not reversible by hashing guesses. */
  digest(text: string): string;
}

/** A scrub rule written as a function in a TypeScript or JavaScript config: returns the value to write. */
type ScrubFunction = (value: unknown, row: Readonly<Record<string, unknown>>, context: ScrubFunctionContext) => unknown;

/** One transform as written in the config. */
export type ScrubTransformInput =
  | 'keep'
  | 'null'
  | 'hash'
  | FakeKind
  | { constant: unknown }
  | { redact: RedactKind[]; names?: string[] }
  | ScrubFunction;

/** The `scrub` block: `table.column` (or `table.column:$.json.path`) to a transform, or `table` to a column map. */
export type ScrubConfigInput = Record<string, ScrubTransformInput | Record<string, ScrubTransformInput>>;

/** A transform after parsing. */
export type ScrubTransform =
  | { kind: 'keep' }
  | { kind: 'null' }
  | { kind: 'constant'; value: unknown }
  | { kind: 'hash' }
  | { kind: 'fake'; fake: FakeKind }
  | { kind: 'redact'; redact: RedactKind[]; names: string[] }
  | { kind: 'function'; fn: ScrubFunction };

/** One rule of the config before it is matched against the database: where it was written and what it says. */
export interface ScrubRuleEntry {
  /** The config path of the rule, for messages: `["scrub", "users.email"]` or `["scrub", "users", "email"]`. */
  path: string[];
  /** `table.column`, or for a table map the table alone (the column is then `column`). */
  target: string;
  column?: string;
  /** Set for a rule inside a json/jsonb column. */
  jsonPath?: { text: string; steps: JsonPathStep[] };
  transform: ScrubTransform;
}

const WORDS = ['keep', 'null', 'hash', ...FAKE_KINDS] as const;
const TRANSFORM_LIST = `${WORDS.join(', ')}, { constant: value }, { redact: [${REDACT_KINDS.join(', ')}] } or a function`;

/** Parses one transform; a string says what is wrong. */
export function parseTransform(value: unknown): ScrubTransform | string {
  if (typeof value === 'function') return { kind: 'function', fn: value as ScrubFunction };
  if (typeof value === 'string') {
    if (value === 'keep' || value === 'null' || value === 'hash') return { kind: value };
    if ((FAKE_KINDS as readonly string[]).includes(value)) return { kind: 'fake', fake: value as FakeKind };
    return `unknown transform ${JSON.stringify(value)} (use ${TRANSFORM_LIST})`;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === 'constant')
      return { kind: 'constant', value: (value as { constant: unknown }).constant };
    if ('redact' in value && keys.every((key) => key === 'redact' || key === 'names'))
      return parseRedact(value as Record<string, unknown>);
  }
  return `unknown transform ${JSON.stringify(value) ?? String(value)} (use ${TRANSFORM_LIST})`;
}

function parseRedact(value: Record<string, unknown>): ScrubTransform | string {
  const kinds = value.redact;
  if (!Array.isArray(kinds) || kinds.length === 0) return `redact takes a list of ${REDACT_KINDS.join(', ')}`;
  const unknown = kinds.find((kind) => !(REDACT_KINDS as readonly unknown[]).includes(kind));
  if (unknown !== undefined) return `unknown redaction ${JSON.stringify(unknown)} (use ${REDACT_KINDS.join(', ')})`;
  const names = value.names ?? [];
  if (!Array.isArray(names) || names.some((name) => typeof name !== 'string' || name.trim() === ''))
    return 'names must be a list of non-empty texts';
  if (kinds.includes('names') !== names.length > 0)
    return 'redact "names" goes with a non-empty names list, and names with "names"';
  return { kind: 'redact', redact: [...new Set(kinds as RedactKind[])].sort(), names: names as string[] };
}

/** True when a value is a column map (`users: { email: 'email' }`) rather than one transform. */
function isColumnMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return !(keys.length === 1 && keys[0] === 'constant') && !('redact' in value);
}

/** Splits `column:$.path` into the column and its parsed path; a string says what is wrong. */
function splitJsonPath(target: string): { base: string; jsonPath?: ScrubRuleEntry['jsonPath'] } | string {
  const at = target.indexOf(':$');
  if (at < 0) return { base: target };
  const text = target.slice(at + 1);
  const steps = parseJsonPath(text);
  if (!steps || steps.length === 0)
    return `${JSON.stringify(text)} is not a JSON path this rule can use (write $.key, $.list[*].key, $..key)`;
  return { base: target.slice(0, at), jsonPath: { text, steps } };
}

/** Flattens the `scrub` block into rules, or lists what is wrong with it (path inside the block, message). */
export function scrubRuleEntries(scrub: Readonly<Record<string, unknown>>): {
  rules: ScrubRuleEntry[];
  issues: { path: string[]; message: string }[];
} {
  const rules: ScrubRuleEntry[] = [];
  const issues: { path: string[]; message: string }[] = [];
  const add = (path: string[], target: string, column: string | undefined, value: unknown): void => {
    const split = splitJsonPath(column ?? target);
    if (typeof split === 'string') return void issues.push({ path, message: split });
    const transform = parseTransform(value);
    if (typeof transform === 'string') return void issues.push({ path, message: transform });
    if (!column && !split.base.includes('.')) {
      return void issues.push({
        path,
        message: `${JSON.stringify(split.base)} names no column: write "table.column" or table: { column: transform }`,
      });
    }
    rules.push({
      path,
      target: column ? target : split.base,
      ...(column ? { column: split.base } : {}),
      ...(split.jsonPath ? { jsonPath: split.jsonPath } : {}),
      transform,
    });
  };
  for (const [key, value] of Object.entries(scrub)) {
    if (isColumnMap(value) && !key.includes(':')) {
      for (const [column, inner] of Object.entries(value)) add(['scrub', key, column], key, column, inner);
    } else {
      add(['scrub', key], key, undefined, value);
    }
  }
  return { rules, issues };
}

/** The zod schema of the `scrub` block: each rule's transform and JSON path are checked here, tables later. */
export const scrubSchema = z.record(z.string(), z.unknown()).superRefine((scrub, context) => {
  for (const issue of scrubRuleEntries(scrub).issues)
    context.addIssue({ code: 'custom', path: issue.path.slice(1), message: issue.message });
}) as unknown as z.ZodType<ScrubConfigInput, ScrubConfigInput>;

/** Names of environment variables: the config may rename the scrub key's. */
export const envNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name (letters, digits, _)');

/** The default environment variable the CLI reads the scrub key from. */
export const DEFAULT_SCRUB_KEY_ENV = 'TURNKIT_SCRUB_KEY';
