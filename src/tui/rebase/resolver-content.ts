import type { ChangeConflict } from '../../fixture/constructed/apply-changes.js';
import type { KeepSide } from '../../fixture/constructed/resolve-conflicts.js';
import { visibleControls } from '../../util/visible-controls.js';
import { wrap } from '../text-buffer.js';

/** One screen line of a conflict's values: a heading (which side, whether kept) or a line of a value. */
export interface DetailLine {
  readonly text: string;
  readonly heading?: 'kept' | 'dropped' | 'plain';
}

/**
 * The selected conflict's three values, each under a heading, soft-wrapped to the width: what the change expected
 * (the old base), what the new base holds, and what the change sets. The side chosen is marked kept and the other
 * dropped, so the screen says what the saved file will hold.
 */
export function detailLines(conflict: ChangeConflict, choice: KeepSide | undefined, width: number): DetailLine[] {
  const mark = (side: KeepSide): DetailLine['heading'] =>
    choice === undefined ? 'plain' : choice === side ? 'kept' : 'dropped';
  const tag = (side: KeepSide): string => (choice === undefined ? '' : choice === side ? '  ✓ kept' : '  (dropped)');
  const block = (title: string, value: unknown, heading: DetailLine['heading']): DetailLine[] => [
    { text: title, heading },
    ...wrap(shownValue(value), Math.max(10, width - 3)).map((line) => ({ text: `  ${line.text}` })),
  ];
  return [
    ...block('old base (what the change expected):', conflict.old, 'plain'),
    ...block(`new base [b]:${tag('base')}`, conflict.base, mark('base')),
    ...block(`change [c]:${tag('change')}`, conflict.new, mark('change')),
  ];
}

/** How the list names a conflict's choice. */
export function choiceLabel(choice: KeepSide | undefined): string {
  return choice === 'base' ? 'keep new base' : choice === 'change' ? 'keep change' : 'choose b or c';
}

/**
 * A value as the screen shows it: text as text, anything else as JSON, its control characters as visible escapes
 * (game and model text is untrusted).
 */
function shownValue(value: unknown): string {
  if (value === undefined) return '(gone: the new base has no such row or column)';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return visibleControls(text.replace(/\t/g, '  '));
}
