import { lenientJsonLines } from '../util/json/json-lines.js';
import type { RepKey } from './run-state.js';

/** A non-blank line of a judge file: its text and number in the file, and its fields when it is a JSON object. */
export interface JudgeLine {
  text: string;
  line: number;
  entry: Record<string, unknown> | undefined;
}

/**
 * The lines of a judge file (`judge-SLUG.jsonl`, `judge-cache.jsonl`), read by the one JSON-lines reader. A line
 * that is not a JSON object (torn by a crash; `null` or a number written by hand) has no entry: it holds nothing a
 * reader of these files needs, so each skips it rather than refuse the run.
 */
export function judgeLines(text: string): JudgeLine[] {
  return lenientJsonLines(text).map(({ text: line, line: number, value }) => ({
    text: line,
    line: number,
    entry:
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined,
  }));
}

/** The rep a judge file's entry is about: a verdict names one; a cache entry does not. */
export function verdictRep(entry: Record<string, unknown> | undefined): RepKey | undefined {
  return typeof entry?.fixture === 'string' && typeof entry.rep === 'number'
    ? { fixture: entry.fixture, rep: entry.rep }
    : undefined;
}
