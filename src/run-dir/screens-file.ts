import { jsonLines } from '../util/json/json-lines.js';
import { parseWithSchema } from '../util/json/json-source.js';
import type { ScreenMark } from '../question/screen-result.js';
import { leanScreenRow } from './lean-shapes.js';

/** The file `judge --checks` writes beside marks.checks.csv: each rep's result per screen, one JSON line a rep. */
export const CHECKS_SCREENS_FILE = 'screens.checks.jsonl';

/** A screen's result on a rep as the screens file keeps it: `error` when the rep itself errored. */
export interface ScreenEntry {
  screen: string;
  mark: ScreenMark | 'error';
  reason: string;
}

/** One rep's line: its combined mark (the one marks.checks.csv holds) and every screen's result. */
export interface ScreenRow {
  fixture: string;
  rep: number;
  mark: 'pass' | 'fail' | 'na' | 'error';
  screens: ScreenEntry[];
}

/** The screens file's text: one line per rep, in the order given (the run's plan). */
export function formatScreens(rows: readonly ScreenRow[]): string {
  return rows
    .map((row) =>
      JSON.stringify({
        fixture: row.fixture,
        rep: row.rep,
        mark: row.mark,
        screens: row.screens.map(({ screen, mark, reason }) => ({ screen, mark, reason })),
      }),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/** Parses a screens file's text, each line checked; a bad line is a one-line error naming the file and line. */
export async function parseScreens(text: string, shown: string): Promise<ScreenRow[]> {
  const rows: ScreenRow[] = [];
  for (const { value, line } of jsonLines(text, shown)) {
    // The lean shape says what the schema says of a line, without loading zod; a line it refuses is the schema's to
    // name the problem of.
    if (leanScreenRow(value)) {
      rows.push(value as ScreenRow);
      continue;
    }
    const { screenRowSchema } = await import('./screens-schema.js');
    rows.push(parseWithSchema(screenRowSchema, value, `${shown}:${line}`));
  }
  return rows;
}
