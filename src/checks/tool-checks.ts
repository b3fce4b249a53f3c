import { isDeepStrictEqual } from 'node:util';
import { checkRegex } from '../question/check-regex.js';
import type { CallRule, EffectRule, OrderRule, RequiredCall, ToolChecks } from '../question/tools-format.js';
import type { ScreenResult } from '../question/screen-result.js';
import type { ToolCall } from '../sut/tool-call.js';
import type { EffectsSummary } from '../scratch/effects/scratch-effects.js';
import { screenNames } from './screen-names.js';
import { sameTool, toolKey } from './tool-name.js';

/** What the tool checks read of a rep (or of one rollout turn): its calls in order and what it changed. */
export interface ToolEvidence {
  toolCalls?: readonly ToolCall[] | undefined;
  /** null when the effects were not read (every effect rule is then unscored). */
  effects: EffectsSummary | null;
}

/**
 * Applies a question's `tools:` rules to one rep, one screen per rule in the order the question lists them (allowed,
 * required, forbidden, order, effects). Calls are numbered from 1 in the reasons, as the rep's files number them.
 * Pure: the same evidence gives the same results.
 */
export function toolScreens(tools: ToolChecks, evidence: ToolEvidence): ScreenResult[] {
  const calls = evidence.toolCalls ?? [];
  const rules: { name: string; run: () => Omit<ScreenResult, 'screen'> }[] = [];
  if (tools.allowed !== undefined) {
    const allowed = Array.isArray(tools.allowed) ? { tools: tools.allowed } : tools.allowed;
    rules.push({ name: allowed.name ?? 'allowed-tools', run: () => allowedScreen(allowed.tools, calls) });
  }
  for (const rule of tools.required)
    rules.push({ name: rule.name ?? `required-${rule.tool}`, run: () => requiredScreen(rule, calls) });
  for (const rule of tools.forbidden)
    rules.push({ name: rule.name ?? `forbidden-${rule.tool}`, run: () => forbiddenScreen(rule, calls) });
  for (const rule of tools.order)
    rules.push({ name: rule.name ?? `order-${rule.tools.join('-')}`, run: () => orderScreen(rule, calls) });
  for (const rule of tools.effects)
    rules.push({
      name: rule.name ?? `effect-${rule.tool}-${rule.table}`,
      run: () => effectScreen(rule, calls, evidence.effects),
    });
  const names = screenNames(rules.map((rule) => rule.name));
  return rules.map((rule, i) => ({ screen: names[i]!, ...rule.run() }));
}

function allowedScreen(allowed: readonly string[], calls: readonly ToolCall[]): Omit<ScreenResult, 'screen'> {
  const set = new Set(allowed.map(toolKey));
  const others = calls.flatMap((call, i) => (set.has(toolKey(call.name)) ? [] : [`call ${i + 1} (${call.name})`]));
  if (others.length === 0) return { mark: 'pass', reason: `${calls.length} call(s), every one of an allowed tool` };
  const list = allowed.length > 0 ? allowed.join(', ') : 'none';
  return { mark: 'fail', reason: `${others.join(', ')}: not an allowed tool (allowed: ${list})` };
}

function requiredScreen(rule: RequiredCall, calls: readonly ToolCall[]): Omit<ScreenResult, 'screen'> {
  const min = rule.exactly ?? rule.atLeast ?? (rule.atMost !== undefined ? 0 : 1);
  const max = rule.exactly ?? rule.atMost ?? Number.POSITIVE_INFINITY;
  const ofTool = calls.flatMap((call, i) => (sameTool(call.name, rule.tool) ? [{ call, i }] : []));
  const matching = ofTool.filter(({ call }) => mismatch(rule, call) === undefined);
  const n = matching.length;
  const which = n > 0 ? ` (${callList(matching.map(({ i }) => i))})` : '';
  const expected =
    rule.exactly !== undefined
      ? `exactly ${min}`
      : max === Number.POSITIVE_INFINITY
        ? `at least ${min}`
        : min === 0
          ? `at most ${max}`
          : `${min} to ${max}`;
  const described = describeCall(rule);
  if (n >= min && n <= max) return { mark: 'pass', reason: `${described} made ${n} time(s)${which}, ${expected}` };
  if (n > max) return { mark: 'fail', reason: `${described} made ${n} times${which}, expected ${expected}` };
  if (ofTool.length === 0) return { mark: 'fail', reason: `${rule.tool} never called, expected ${expected} call(s)` };
  // The calls of the tool that did not qualify, each with its first difference: what a person fixes.
  const misses = ofTool
    .filter(({ call }) => mismatch(rule, call) !== undefined)
    .slice(0, 3)
    .map(({ call, i }) => `call ${i + 1} (${call.name}): ${mismatch(rule, call)}`);
  return {
    mark: 'fail',
    reason: `${described} made ${n} time(s)${which}, expected ${expected}${misses.length > 0 ? `; ${misses.join('; ')}` : ''}`,
  };
}

function forbiddenScreen(rule: CallRule, calls: readonly ToolCall[]): Omit<ScreenResult, 'screen'> {
  const hits = calls.flatMap((call, i) =>
    sameTool(call.name, rule.tool) && mismatch(rule, call) === undefined ? [`call ${i + 1} (${call.name})`] : [],
  );
  if (hits.length === 0) return { mark: 'pass', reason: `no ${describeCall(rule)}` };
  return { mark: 'fail', reason: `${hits.join(', ')}: ${describeCall(rule)} is forbidden` };
}

function orderScreen(rule: OrderRule, calls: readonly ToolCall[]): Omit<ScreenResult, 'screen'> {
  let previous = -1;
  const steps: string[] = [];
  for (const [step, tool] of rule.tools.entries()) {
    const next = calls.findIndex((call, i) => i > previous && sameTool(call.name, tool));
    if (next === -1) {
      const first = calls.findIndex((call) => sameTool(call.name, tool));
      const after = step > 0 ? ` after ${rule.tools[step - 1]} (call ${previous + 1})` : '';
      return {
        mark: 'fail',
        reason:
          first === -1
            ? `${tool} never called${after}`
            : `${tool} not called${after}: its first call is call ${first + 1}, before it`,
      };
    }
    steps.push(`${tool} (call ${next + 1})`);
    previous = next;
  }
  return { mark: 'pass', reason: steps.join(', then ') };
}

function effectScreen(
  rule: EffectRule,
  calls: readonly ToolCall[],
  effects: EffectsSummary | null,
): Omit<ScreenResult, 'screen'> {
  if (!effects) return { mark: 'unscored', reason: "the rep's effects were not read" };
  // A call that failed changed nothing, by its own account: only successful calls owe a row.
  const made = calls.flatMap((call, i) =>
    sameTool(call.name, rule.tool) && typeof call.error !== 'string' ? [i] : [],
  );
  const rows = effects[rule.kind][rule.table] ?? 0;
  const callsText = `${made.length} successful ${rule.tool} call(s)${made.length > 0 ? ` (${callList(made)})` : ''}`;
  const rowsText = `${rows} ${rule.table} row(s) ${rule.kind}`;
  if (made.length === 0 && rows === 0)
    return rule.required
      ? { mark: 'fail', reason: `${rule.tool} never called and no ${rule.table} row ${rule.kind}` }
      : { mark: 'pass', reason: `no ${rule.tool} call and no ${rule.table} row ${rule.kind}` };
  const missing = rule.rows === 'per-call' ? rows < made.length : rows === 0;
  const unreceipted = rule.rows === 'per-call' ? rows > made.length : made.length === 0;
  if (missing) return { mark: 'fail', reason: `${callsText} but ${rowsText}: a call's effect is missing` };
  if (unreceipted) return { mark: 'fail', reason: `${rowsText} but ${callsText}: an effect with no call` };
  return { mark: 'pass', reason: `${callsText}, ${rowsText}` };
}

/**
 * Why a call of the rule's tool does not qualify (its first difference: an argument missing, another value, a
 * pattern not matched, an error where none was expected), or undefined when it does.
 */
function mismatch(rule: CallRule, call: ToolCall): string | undefined {
  const wanted = rule.arguments ?? {};
  const patterns = rule.patterns ?? {};
  const checksArguments = Object.keys(wanted).length + Object.keys(patterns).length > 0 || rule.match === 'exact';
  if (checksArguments && typeof call.arguments === 'string') return 'its arguments are text, not an object';
  const args = call.arguments as Record<string, unknown>;
  for (const [key, value] of Object.entries(wanted)) {
    if (!Object.hasOwn(args, key)) return `argument ${key} is missing`;
    if (!isDeepStrictEqual(args[key], value)) return `argument ${key} is ${shown(args[key])}, expected ${shown(value)}`;
  }
  for (const [key, pattern] of Object.entries(patterns)) {
    if (!Object.hasOwn(args, key)) return `argument ${key} is missing`;
    const value = args[key];
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      return `argument ${key} is ${shown(value)}, not text to match ${patternText(pattern)}`;
    if (!checkRegex(pattern).test(String(value)))
      return `argument ${key} is ${shown(value)}, which does not match ${patternText(pattern)}`;
  }
  if (rule.match === 'exact') {
    const extra = Object.keys(args).find((key) => !Object.hasOwn(wanted, key) && !Object.hasOwn(patterns, key));
    if (extra !== undefined) return `argument ${extra} is not expected (match: exact)`;
  }
  if (rule.error === true && typeof call.error !== 'string') return 'it succeeded, expected an error';
  if (rule.error === false && typeof call.error === 'string') return `it failed (${shown(call.error)})`;
  return undefined;
}

// The rule's calls as a reason names them: `create_job with pump "P-7"`.
function describeCall(rule: CallRule): string {
  const parts = [
    ...Object.entries(rule.arguments ?? {}).map(([key, value]) => `${key} ${shown(value)}`),
    ...Object.entries(rule.patterns ?? {}).map(([key, pattern]) => `${key} ~ ${patternText(pattern)}`),
  ];
  const failed = rule.error === true ? ' failing' : rule.error === false ? ' succeeding' : '';
  return `${rule.tool}${failed} call${parts.length > 0 ? ` with ${parts.join(', ')}` : ''}`;
}

function callList(indexes: readonly number[]): string {
  const shownIndexes = indexes.slice(0, 10).map((i) => i + 1);
  return `call${indexes.length === 1 ? '' : 's'} ${shownIndexes.join(', ')}${indexes.length > 10 ? ', …' : ''}`;
}

// A value in a reason: JSON, cut short (the rep's files keep the whole value).
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= 60 ? text : `${text.slice(0, 60)}…`;
}

function patternText(pattern: string | { pattern: string; flags?: string | undefined }): string {
  return typeof pattern === 'string' ? `/${pattern}/` : `/${pattern.pattern}/${pattern.flags ?? ''}`;
}
