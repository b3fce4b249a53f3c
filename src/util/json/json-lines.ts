import { lenientJson, parseJsonText } from './json-source.js';

/** One line of a JSON-lines file: its value and its line number (from 1), for messages about that line. */
export interface JsonLine {
  value: unknown;
  line: number;
}

/** A line of a JSON-lines file read leniently: its text and number, and its value (undefined when unreadable). */
export interface LenientJsonLine extends JsonLine {
  text: string;
}

/**
 * The values of a JSON-lines text, blank lines skipped; each line is read as parseJsonText reads a file, so a line
 * that is not JSON is the one-line error `shown:line:col: invalid JSON: ...` (`shown`: the file as messages show it).
 * Each caller then checks its own shape at the same place.
 */
export function jsonLines(text: string, shown: string): JsonLine[] {
  return nonBlankLines(text).map(({ text: line, number }) => ({
    value: parseJsonText(line, shown, number),
    line: number,
  }));
}

/**
 * Every non-blank line of a JSON-lines text, with the value of each that jsonLines would accept: for files whose
 * readers skip a line they cannot read (torn by a crash) rather than refuse the file.
 */
export function lenientJsonLines(text: string): LenientJsonLine[] {
  return nonBlankLines(text).map(({ text: line, number }) => ({ text: line, line: number, value: lenientJson(line) }));
}

// Numbered before blank lines go, so that a line is named as the file has it.
function nonBlankLines(text: string): { text: string; number: number }[] {
  return text
    .split('\n')
    .map((line, index) => ({ text: line, number: index + 1 }))
    .filter(({ text: line }) => line.trim() !== '');
}
