import { basename } from 'node:path';
import type { Report } from './build-report.js';
import type { Table } from './report-text.js';

/**
 * With `--marks a,b`: per fixture and per tag, how many of the marks its rate counts came from each file, so that
 * a rate resting mostly on the checks is read as the checks' rate.
 */
export function sourceLines(report: Report, table: Table): string[] {
  const sources = report.marksSources;
  if (!sources) return [];
  const files = sources.files.map((file) => basename(file));
  const countIn = (entry: { sources: { file: string; marks: number }[] }, file: string): number =>
    entry.sources.find((source) => source.file === file)?.marks ?? 0;
  const tagOf = new Map(report.fixtures.map((fixture) => [fixture.fixture, fixture.tag ?? 'untagged']));
  const rows = [
    ['fixture', ...files],
    ...sources.fixtures.map((entry) => [entry.fixture, ...files.map((file) => String(countIn(entry, file)))]),
    ...report.tags.map((totals) => [
      `total (${totals.tag})`,
      ...files.map((file) =>
        String(
          sources.fixtures
            .filter((entry) => tagOf.get(entry.fixture) === totals.tag)
            .reduce((sum, entry) => sum + countIn(entry, file), 0),
        ),
      ),
    ]),
  ];
  return [
    ...table(rows, ['left', ...files.map(() => 'right' as const)]),
    '',
    `Marks by precedence: each rep's mark comes from the first of ${files.join(', ')} that marks it.`,
  ];
}
