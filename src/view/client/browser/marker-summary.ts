import { MARK_LETTER, type MarkerSummary, type PackedMarkerSummary } from '../../view-data.js';

// A packed summary's mark letters back to marks.
const MARKS: Record<string, string> = Object.fromEntries(Object.entries(MARK_LETTER).map(([mark, l]) => [l, mark]));

/**
 * The marker's summary as the page keeps it, from the packed form /api/marker sends: per position its
 * `[mark, note]`, its turn marks and whether it keeps its mark.
 */
export function unpackSummary(packed: PackedMarkerSummary): MarkerSummary {
  const { marks: letters, notes, turnMarks: turns, skipped: kept, ...rest } = packed;
  const marks: [string, string][] = [];
  const turnMarks: [number, string][][] = [];
  const skipped: boolean[] = [];
  for (let i = 0; i < letters.length; i++) {
    marks.push([MARKS[letters.charAt(i)] ?? '', notes[i] ?? '']);
    turnMarks.push(turns[i] ?? []);
    skipped.push(false);
  }
  for (const i of kept) skipped[i] = true;
  return { ...rest, marks, turnMarks, skipped };
}
