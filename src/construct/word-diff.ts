import { diffWordsWithSpace } from 'diff';

/** A stretch of a value as shown in a diff: kept, removed or added. */
export interface DiffSegment {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/**
 * The difference between an old and a new value as segments: a word diff for two strings (a corrected narration
 * reads as "deck [-3-]{+2+}" rather than two whole paragraphs), else the old and the new JSON.
 */
export function valueDiff(oldValue: unknown, newValue: unknown): DiffSegment[] {
  if (typeof oldValue === 'string' && typeof newValue === 'string') {
    return diffWordsWithSpace(oldValue, newValue).map((part) => ({
      kind: part.added ? 'added' : part.removed ? 'removed' : 'same',
      text: part.value,
    }));
  }
  return [
    { kind: 'removed', text: JSON.stringify(oldValue) ?? 'undefined' },
    { kind: 'same', text: ' ' },
    { kind: 'added', text: JSON.stringify(newValue) ?? 'undefined' },
  ];
}

/** Shortens long unchanged stretches to their ends so that the changes fit on a few lines. */
export function trimSame(segments: readonly DiffSegment[], context = 24): DiffSegment[] {
  return segments.map((segment, i) => {
    if (segment.kind !== 'same' || segment.text.length <= context * 2 + 3) return segment;
    const first = i === 0;
    const last = i === segments.length - 1;
    const head = first ? '' : segment.text.slice(0, context);
    const tail = last ? '' : segment.text.slice(-context);
    return { kind: 'same', text: `${head}…${tail}` };
  });
}
