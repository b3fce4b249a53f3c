import { checkedText } from './tool-name.js';
import type { Fixture } from '../fixture/format.js';
import { describeRow, rowKey, tableNamed } from '../fixture/row-key.js';
import type { HiddenRule } from '../question/hidden-format.js';
import type { ScreenResult } from '../question/screen-result.js';
import type { ToolCall } from '../sut/tool-call.js';
import { containsTerm } from '../question/check-screens.js';
import { screenNames } from './screen-names.js';

/** One hidden value: where it is (table, row, column) and the text the player must not see. */
interface HiddenValue {
  /** How the row reads in reasons: `world_elements[id=7]`. */
  row: string;
  column: string;
  value: string;
}

/** A rule's hidden values in one fixture, or why the rule cannot apply to it (the fixture has no such table). */
export type HiddenValues = { values: HiddenValue[] } | { missing: string };

/** Letters and digits a value needs to be worth hiding: "no" or "7" would be found in any answer. */
const MIN_LETTERS = 3;

/**
 * The values each rule of `hidden:` hides in a fixture: the named columns of the rows its `where` selects, strings
 * only (a number or a flag is no secret a response could reveal by wording), without the too short to tell.
 */
export function hiddenValues(rules: readonly HiddenRule[], fixture: Fixture): HiddenValues[] {
  return rules.map((rule) => {
    const table = tableNamed(fixture, rule.table);
    if (!table) return { missing: `fixture ${fixture.name} has no ${rule.table} table` };
    const values: HiddenValue[] = [];
    for (const row of table.rows) {
      if (!Object.entries(rule.where ?? {}).every(([column, value]) => row[column] === value)) continue;
      const name = describeRow(rule.table, table.primaryKey, rowKey(row, table.primaryKey));
      for (const column of rule.columns) {
        const value = row[column];
        if (typeof value === 'string' && words(value).join('').length >= MIN_LETTERS)
          values.push({ row: name, column, value });
      }
    }
    return { values };
  });
}

/**
 * Applies `hidden:` to one rep's texts (its response and every tool call's arguments): a screen per rule, failing
 * when any text reveals a hidden value. The reason names the row and the column, never the value, so that no file
 * or message repeats the secret.
 */
export function hiddenScreens(
  rules: readonly HiddenRule[],
  values: readonly HiddenValues[],
  evidence: { response: string | null; toolCalls?: readonly ToolCall[] | undefined },
): ScreenResult[] {
  const names = screenNames(rules.map((rule) => rule.name ?? `hidden-${rule.table}`));
  const texts = revealingTexts(evidence);
  return rules.map((rule, i) => {
    const screen = names[i]!;
    const found = values[i];
    if (!found || 'missing' in found) return { screen, mark: 'unscored', reason: found?.missing ?? 'no values' };
    if (found.values.length === 0)
      return { screen, mark: 'unscored', reason: `no hidden ${rule.table} value in the fixture` };
    // A tool's name or an argument's key is shown in a reason only when it is a plain identifier that reveals none
    // of the rule's values: the reason must never repeat what it flags.
    const label = (text: string, instead: string): string =>
      /^[\p{L}\p{N}_.:-]{1,64}$/u.test(text) && !found.values.some((hidden) => reveals(text, hidden.value, rule.words))
        ? text
        : instead;
    const leaks: string[] = [];
    for (const hidden of found.values) {
      const where = texts.find((text) => reveals(text.text, hidden.value, rule.words));
      if (where) leaks.push(`${where.place(label)} reveals ${hidden.row}, column ${hidden.column}`);
    }
    if (leaks.length === 0)
      return { screen, mark: 'pass', reason: `${found.values.length} hidden value(s), none revealed` };
    return { screen, mark: 'fail', reason: leaks.slice(0, 5).join('; ') + (leaks.length > 5 ? '; …' : '') };
  });
}

/**
 * Whether a text reveals a value: a value of up to `run` words as a whole phrase, a longer one by any `run` of its
 * words in a row. Words are compared as `checks` terms are (whole words, any case), whatever stands between them.
 */
export function reveals(text: string, value: string, run: number): boolean {
  const said = words(text).join(' ');
  const hidden = words(value);
  if (hidden.length <= run) return containsTerm(said, hidden.join(' '));
  for (let start = 0; start + run <= hidden.length; start++)
    if (containsTerm(said, hidden.slice(start, start + run).join(' '))) return true;
  return false;
}

function words(text: string): string[] {
  // As the checks read text: soft hyphens and zero-width characters inside a value do not hide it.
  return checkedText(text).match(/[\p{L}\p{N}_]+/gu) ?? [];
}

// Where a hidden value could reach the player: the response, and each argument of each call the SUT made.
function revealingTexts(evidence: {
  response: string | null;
  toolCalls?: readonly ToolCall[] | undefined;
}): { place: (label: Label) => string; text: string }[] {
  const texts: { place: (label: Label) => string; text: string }[] = [
    { place: () => 'the response', text: evidence.response ?? '' },
  ];
  for (const [i, call] of (evidence.toolCalls ?? []).entries()) {
    const tool = (label: Label): string => `call ${i + 1} (${label(call.name, 'its tool')})`;
    // The tool's name and every argument's key are what the SUT sent too.
    texts.push({ place: (label) => `${tool(label)} name`, text: call.name });
    if (typeof call.arguments === 'string')
      texts.push({ place: (label) => `${tool(label)} arguments`, text: call.arguments });
    else
      for (const [n, [key, value]] of Object.entries(call.arguments).entries()) {
        const argument = (label: Label): string => `${tool(label)} argument ${label(key, `#${n + 1}`)}`;
        texts.push({ place: (label) => `${argument(label)} key`, text: key });
        texts.push({ place: argument, text: strings(value).join('\n') });
      }
  }
  return texts;
}

// Every string inside a value, the keys of nested objects with them (a key is what the SUT sent too).
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, inner]) => [key, ...strings(inner)]);
  return value === null || value === undefined ? [] : [String(value)];
}

// How a reason shows a name or key the SUT sent: as it is when safe to repeat, else the stand-in.
type Label = (text: string, instead: string) => string;
