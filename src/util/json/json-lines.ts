import { TurnkitError } from '../../errors.js';

/** One line of a JSON-lines file: its value and its line number (from 1), for messages about that line. */
export interface JsonLine {
  value: unknown;
  line: number;
}

/**
 * The values of a JSON-lines text, blank lines skipped; a line that is not JSON is a one-line error naming `shown`
 * (the file as messages show it) and the line. Each caller then checks its own shape at the same place.
 */
export function jsonLines(text: string, shown: string): JsonLine[] {
  const values: JsonLine[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    try {
      values.push({ value: JSON.parse(line), line: index + 1 });
    } catch {
      throw new TurnkitError('BAD_INPUT', `${shown}:${index + 1}: not a JSON line`);
    }
  }
  return values;
}
