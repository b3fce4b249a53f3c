import { checkRegex, declaresAnyCheck } from './check-regex.js';
import {
  anyOf,
  array,
  isRecord,
  boolean,
  number,
  object,
  oneOf,
  optional,
  record,
  refined,
  string,
  unknown,
  type Shape,
} from '../util/lean-shape.js';

// The lean shapes (util/lean-shape.ts) of a question's checks, tool checks and hidden rows, as a run's manifest keeps
// them: checksSchema, toolsSchema and hiddenSchema, rule for rule, without zod. A field with a default must be
// present (the manifest holds them filled in); a string zod trims must already be trimmed.

const screenName = string({ trimmed: true, min: 1, max: 80, pattern: /^[^,\n]+$/ });
const screenFields = {
  name: optional(screenName),
  applies: optional(array(string({ trimmed: true, min: 1 }), 1)),
};
const termList = anyOf(
  array(string({ trimmed: true, min: 1 })),
  object({ ...screenFields, terms: array(string({ trimmed: true, min: 1 }), 1) }),
);

function compiles(entry: string | { pattern: string; flags?: string | undefined }): boolean {
  try {
    checkRegex(entry);
    return true;
  } catch {
    return false;
  }
}

function regexEntryWith(fields: Parameters<typeof object>[0]): Shape {
  return refined(
    anyOf(
      string({ min: 1 }),
      object({ pattern: string({ min: 1 }), flags: optional(string({ pattern: /^[imsu]*$/ })), ...fields }),
    ),
    compiles,
  );
}
const regexEntry = regexEntryWith(screenFields);

const scalar = anyOf(string(), number(), boolean, oneOf(null));
const valuePredicate = anyOf(
  scalar,
  object({ matches: regexEntryWith({}) }),
  object({ oneOf: array(scalar, 1) }),
  object({ nonEmpty: oneOf(true) }),
);
const rowCount = anyOf(
  number({ int: true, min: 0 }),
  refined(
    object({ min: optional(number({ int: true, min: 0 })), max: optional(number({ int: true, min: 0 })) }),
    (count: { min?: number; max?: number }) =>
      (count.min !== undefined || count.max !== undefined) &&
      (count.min === undefined || count.max === undefined || count.min <= count.max),
  ),
);
const keyed = record(scalar);
const expectedRow: Shape = (value) =>
  isRecord(value) &&
  Object.entries(value).every(([column, predicate]) => (column === 'key' ? keyed : valuePredicate)(predicate));
const tableExpectation = anyOf(
  oneOf('unchanged'),
  object({
    inserted: optional(rowCount),
    updated: optional(rowCount),
    deleted: optional(rowCount),
    rows: optional(array(expectedRow)),
    ...screenFields,
  }),
);
const stateChecks = object({
  volatile: array(string({ trimmed: true, min: 1 })),
  tables: refined(record(tableExpectation), (tables: Record<string, unknown>) =>
    Object.keys(tables).every((name) => name.length > 0),
  ),
  onlyChanges: anyOf(boolean, object(screenFields)),
});

/** checksSchema's lean shape. */
export const leanChecks: Shape = refined(
  object({
    mustContain: termList,
    mustNotContain: termList,
    matches: array(regexEntry),
    mustNotMatch: array(regexEntry),
    effects: object({
      inserted: array(object({ table: string({ min: 1 }), nonEmpty: array(string({ min: 1 })), ...screenFields })),
      noOutsideChanges: anyOf(boolean, object(screenFields)),
    }),
    state: optional(stateChecks),
    facts: optional(
      array(
        refined(
          object({ fact: string({ min: 1 }), mustState: boolean, mustNotContradict: boolean, ...screenFields }),
          (rule: { mustState: boolean; mustNotContradict: boolean }) => rule.mustState || rule.mustNotContradict,
        ),
      ),
    ),
  }),
  declaresAnyCheck,
);

const toolName = string({ trimmed: true, min: 1 });
const callMatch = {
  name: optional(screenName),
  tool: toolName,
  arguments: optional(record(unknown)),
  match: oneOf('subset', 'exact'),
  patterns: optional(record(regexEntryWith({}))),
  error: optional(boolean),
};
const count = optional(number({ int: true, min: 0 }));
const requiredCall = refined(
  object({ ...callMatch, atLeast: count, atMost: count, exactly: count }),
  (rule: { atLeast?: number; atMost?: number; exactly?: number }) =>
    (rule.exactly === undefined || (rule.atLeast === undefined && rule.atMost === undefined)) &&
    (rule.atLeast === undefined || rule.atMost === undefined || rule.atLeast <= rule.atMost),
);

/** toolsSchema's lean shape. */
export const leanTools: Shape = refined(
  object({
    allowed: optional(anyOf(array(toolName), object({ name: optional(screenName), tools: array(toolName) }))),
    required: array(requiredCall),
    forbidden: array(object(callMatch)),
    order: array(object({ name: optional(screenName), tools: array(toolName, 2) })),
    effects: array(
      object({
        name: optional(screenName),
        tool: toolName,
        table: string({ min: 1 }),
        kind: oneOf('inserted', 'updated', 'deleted'),
        rows: oneOf('per-call', 'any'),
        required: boolean,
      }),
    ),
  }),
  (tools: { allowed?: unknown; required: unknown[]; forbidden: unknown[]; order: unknown[]; effects: unknown[] }) =>
    tools.allowed !== undefined ||
    tools.required.length + tools.forbidden.length + tools.order.length + tools.effects.length > 0,
);

/** hiddenSchema's lean shape. */
export const leanHidden: Shape = array(
  object({
    name: optional(string({ pattern: /^[\w.-]+$/ })),
    table: string({ min: 1 }),
    where: optional(record(anyOf(string(), number(), boolean, oneOf(null)))),
    columns: array(string({ min: 1 }), 1),
    words: number({ int: true, min: 2, max: 50 }),
  }),
  1,
);
