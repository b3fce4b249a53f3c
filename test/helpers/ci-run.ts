import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { formatMarks, type MarkRow } from '../../src/marks/marks-file.js';
import { makeReportRun } from './report-run.js';

/** Marks of one fixture: [mark, note] per rep. */
export type CiMarks = Record<string, [MarkRow['mark'], string?][]>;

/** A note no CI output may interpret: workflow-command and XML syntax, line breaks, a percent sign. */
export const HOSTILE_NOTE = 'said deck 3 %0A::error::owned\r\n<b>&amp;</b>, a:b';

/**
 * The report run (base, base-fixed, far; 6 reps each; file fixtures/NAME.json) with the target and the marks given,
 * so that a test chooses which fixtures are met, missed, uncertain or pending.
 */
export async function makeCiRun(dir: string, target: number, marks: CiMarks): Promise<string> {
  await makeReportRun(dir);
  const manifestFile = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  manifest.question.target = target;
  await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  const rows = Object.entries(marks).flatMap(([fixture, given]) =>
    given.map(([mark, note], i) => ({ fixture, rep: i + 1, mark, note: note ?? '' })),
  );
  await writeFile(join(dir, 'marks.csv'), formatMarks(rows));
  return dir;
}

/** Validates an XML file against an XML Schema with libxml2's xmllint; resolves to its output, rejects when invalid. */
export async function xmllintSchema(file: string, schema: string): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)('xmllint', ['--noout', '--schema', schema, file]);
  return `${stdout}${stderr}`;
}

/** The string value of an XPath expression over an XML file, as libxml2 parses it (entities and references decoded). */
export async function xmllintXpath(file: string, expression: string): Promise<string> {
  const { stdout } = await promisify(execFile)('xmllint', ['--xpath', `string(${expression})`, file]);
  // xmllint ends what it prints with a line feed of its own.
  return stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout;
}
