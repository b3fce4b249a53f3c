import { z } from 'zod';
import { regexEntryWith, screenName } from './checks-format.js';

/** A screen's name as a question gives it, by the same rule as a check's. */
const optionalScreenName = screenName.optional();

/** A tool's name as the SUT calls it. */
const toolName = z.string().trim().min(1);

/** Which calls of a tool a rule is about: its name, and optionally its arguments and whether it failed. */
const callMatch = {
  name: optionalScreenName,
  /** The tool's name as the SUT calls it. */
  tool: toolName,
  /** Arguments the call must have: each key with this value (`match: subset`), or exactly these (`match: exact`). */
  arguments: z.record(z.string(), z.unknown()).optional(),
  /** subset (default): the call may have more arguments; exact: no argument besides these. */
  match: z.enum(['subset', 'exact'], { error: 'expected "subset" or "exact"' }).default('subset'),
  /** Per argument, a regular expression its value (a string, or a number or boolean as text) must match. */
  patterns: z.record(z.string(), regexEntryWith({})).optional(),
  /** true: the call must have failed (an error reported); false: it must have succeeded; absent: either. */
  error: z.boolean().optional(),
};

/** A call that must be made: how many times calls matching it may occur (at least 1 unless told otherwise). */
const requiredCall = z
  .object({
    ...callMatch,
    atLeast: z.number().int().min(0).optional(),
    atMost: z.number().int().min(0).optional(),
    exactly: z.number().int().min(0).optional(),
  })
  .strict()
  .refine((rule) => rule.exactly === undefined || (rule.atLeast === undefined && rule.atMost === undefined), {
    message: 'exactly cannot go with atLeast or atMost',
  })
  .refine((rule) => rule.atLeast === undefined || rule.atMost === undefined || rule.atLeast <= rule.atMost, {
    message: 'atLeast is more than atMost',
  });

/** A call that must not be made (a tool, or a tool with these arguments). */
const forbiddenCall = z.object(callMatch).strict();

/** Tools that must be called in this order (each after the one before it; other calls may come between). */
const orderRule = z
  .object({
    name: optionalScreenName,
    tools: z.array(toolName).min(2, 'name at least two tools'),
  })
  .strict();

/**
 * A call tied to what it changed: every successful call of the tool has its row in the table, and every such row
 * its call. A call whose effect is missing, or an effect with no call, fails.
 */
const effectRule = z
  .object({
    name: optionalScreenName,
    tool: toolName,
    /** The table the call writes, in the rep's recorded effects. */
    table: z.string().min(1),
    /** What the call does to the table's rows. */
    kind: z
      .enum(['inserted', 'updated', 'deleted'], { error: 'expected inserted, updated or deleted' })
      .default('inserted'),
    /** per-call (default): as many rows as successful calls; any: rows when there were calls, none when none. */
    rows: z.enum(['per-call', 'any'], { error: 'expected "per-call" or "any"' }).default('per-call'),
    /** true (default): the call must be made; false: making neither the call nor the change also passes. */
    required: z.boolean().default(true),
  })
  .strict();

/** The allowed tools: a list, or `{ name, tools }` to name the screen. */
const allowedTools = z.union([
  z.array(toolName),
  z.object({ name: optionalScreenName, tools: z.array(toolName) }).strict(),
]);

/**
 * The question's tool checks (`tools:` beside `checks:`), read by `turnkit judge --checks` with the rep's recorded
 * tool calls and effects. Each rule is a screen with a name of its own (given, or derived from the rule).
 */
export const toolsSchema = z
  .object({
    /** Any call of another tool fails. An empty list allows none. */
    allowed: allowedTools.optional(),
    required: z.array(requiredCall).default([]),
    forbidden: z.array(forbiddenCall).default([]),
    order: z.array(orderRule).default([]),
    effects: z.array(effectRule).default([]),
  })
  .strict()
  .refine(
    (tools) =>
      tools.allowed !== undefined ||
      tools.required.length + tools.forbidden.length + tools.order.length + tools.effects.length > 0,
    'declare at least one tool rule',
  );

/** A question's tool checks. */
export type ToolChecks = z.output<typeof toolsSchema>;
/** One rule naming calls (a required or forbidden call). */
export type CallRule = z.output<typeof forbiddenCall>;
/** A required call with its counts. */
export type RequiredCall = z.output<typeof requiredCall>;
/** An order rule. */
export type OrderRule = z.output<typeof orderRule>;
/** A call tied to its effect. */
export type EffectRule = z.output<typeof effectRule>;
