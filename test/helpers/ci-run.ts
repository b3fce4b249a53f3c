import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import type { MarkRow } from '../../src/run-dir/marks/marks-file.js';
import { formatMarks } from '../../src/run-dir/marks/format-marks.js';
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

/**
 * Validates an XML file against an XML Schema with libxml2's xmllint, compiled to WebAssembly (xmllint-wasm, from
 * npm: no program on the PATH); resolves to its verdict ("FILE validates"), rejects with its errors when invalid.
 */
export async function xmllintSchema(file: string, schema: string): Promise<string> {
  const result = await validateXML({
    xml: { fileName: basename(file), contents: await readFile(file, 'utf8') },
    schema: { fileName: basename(schema), contents: await readFile(schema, 'utf8') },
  });
  if (!result.valid) throw new Error(`${file} fails to validate: ${result.rawOutput}`);
  return `${basename(file)} validates`;
}

/** The string value of an XPath expression over an XML file, as libxml2 parses it (entities and references decoded). */
export async function xmllintXpath(file: string, expression: string): Promise<string> {
  const name = basename(file);
  // xmllint-wasm runs xmllint with the arguments given and returns what it prints as `normalized`.
  const result = await validateXML({
    xml: { fileName: name, contents: await readFile(file, 'utf8') },
    normalization: 'format',
    modifyArguments: () => ['--xpath', `string(${expression})`, name],
  });
  if (!result.valid) throw new Error(`${file}: ${result.rawOutput}`);
  // xmllint ends what it prints with a line feed of its own.
  return result.normalized.endsWith('\n') ? result.normalized.slice(0, -1) : result.normalized;
}
