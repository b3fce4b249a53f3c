import { dirname, resolve } from 'node:path';
import { TurnkitError } from '../errors.js';
import { safeParseInWords } from '../util/zod-messages.js';
import { knownRecordsFileSchema, type KnownRecord } from '../question/known-record-format.js';
import { readQuestionData, type LoadedQuestion } from '../question/load-question.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import { checkScreenNames, questionScreens } from '../checks/question-screens.js';
import { applyScreens } from '../checks/run-checks.js';
import { repScreens } from '../checks/rep-screens.js';

/** What a question's known records showed: how many were tried, and screens no record made fail (a warning each). */
export interface KnownRecordsResult {
  records: number;
  warnings: string[];
}

/**
 * Tests a question's checks on its known records (`knownRecords`, inline or a file beside the question): each
 * record's screens must give the results it expects, else the question is refused with a one-line error naming the
 * screen and the record's place. A screen that no record makes fail is said as a warning: it may be unable to fail.
 */
export async function checkKnownRecords(question: LoadedQuestion): Promise<KnownRecordsResult> {
  const q = question.question;
  // The tool rules' screens are tested on the records' calls too (hidden rows need a fixture's values: not here).
  const others = { tools: q.tools };
  const toolNames = repScreens(others, { response: '', toolCalls: [], effects: null }).map((result) => result.screen);
  const names = checkScreenNames(question, toolNames);
  if (q.knownRecords === undefined) return { records: 0, warnings: [] };
  const { records, at } = await knownRecordsOf(question);
  const { checks, transcript } = questionScreens(q.checks, q.transcriptChecks);
  const screens = [...checks, ...transcript];
  const failedSomewhere = new Set<string>();
  for (const [index, known] of records.entries()) {
    for (const name of Object.keys(known.expect))
      if (!names.includes(name))
        throw new TurnkitError(
          'BAD_INPUT',
          `${at([index, 'expect', name])}: no screen is named "${name}" (the question's screens: ${names.join(', ') || 'none'})`,
        );
    const skip = skipsOf(question, known.fixture);
    const record = asRecord(known, index);
    const extra = repScreens(others, record).map((result) =>
      skip.includes(result.screen) ? { ...result, mark: 'unscored' as const } : result,
    );
    const verdict = applyScreens(screens, record, skip, extra);
    for (const result of verdict.screens) {
      if (result.mark === 'fail') failedSomewhere.add(result.screen);
      const expected = known.expect[result.screen];
      if (expected === undefined || expected === result.mark) continue;
      throw new TurnkitError(
        'BAD_INPUT',
        `${at([index, 'expect', result.screen])}: screen "${result.screen}" gave ${result.mark} on this known record${known.about ? ` (${known.about})` : ''}, expected ${expected}${result.mark === 'fail' ? `: ${result.reason}` : ''}`,
      );
    }
  }
  const warnings = [...screens, ...toolNames.map((name) => ({ name, at: ['tools'] as PropertyKey[] }))]
    .filter((screen) => !failedSomewhere.has(screen.name))
    .map(
      (screen) =>
        `${question.at(screen.at)}: screen "${screen.name}": this screen cannot fail on any record given (add a known-bad record that fails it)`,
    );
  return { records: records.length, warnings };
}

async function knownRecordsOf(
  question: LoadedQuestion,
): Promise<{ records: KnownRecord[]; at(path: readonly PropertyKey[]): string }> {
  const given = question.question.knownRecords!;
  if (typeof given !== 'string') return { records: given, at: (path) => question.at(['knownRecords', ...path]) };
  // A file beside the question: its path is relative to the question's folder.
  const data = await readQuestionData(resolve(dirname(question.path), given)).catch((error: unknown) => {
    if (error instanceof TurnkitError && error.code === 'NOT_FOUND')
      throw new TurnkitError('NOT_FOUND', `${question.at(['knownRecords'])}: ${error.message}`);
    throw error;
  });
  const parsed = safeParseInWords(knownRecordsFileSchema, data.value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${data.at(issue.path as PropertyKey[])}: ${issue.message}`);
    throw new TurnkitError('BAD_INPUT', problems[0]!, problems);
  }
  const wrapped = !Array.isArray(parsed.data);
  return {
    records: Array.isArray(parsed.data) ? parsed.data : parsed.data.records,
    at: (path) => data.at(wrapped ? ['records', ...path] : path),
  };
}

// The screens a fixture's entry skips, when the known record names a fixture one of the question's entries names.
function skipsOf(question: LoadedQuestion, fixture: string): string[] {
  return question.question.fixtures.flatMap((entry) => {
    if (typeof entry === 'string' || !entry.skip) return [];
    const stem = entry.path.replace(/^.*[\\/]/, '').replace(/\.json$/i, '');
    return stem === fixture ? entry.skip : [];
  });
}

// A count per table, from a count or a list of rows.
function counted(tables: Record<string, number | unknown[]>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(tables).map(([table, rows]) => [table, Array.isArray(rows) ? rows.length : rows]),
  );
}

/** A known record as the rep record the checks read. */
function asRecord(known: KnownRecord, index: number): RepRecord & { toolCalls: KnownRecord['toolCalls'] } {
  const inserted = known.effects.inserted;
  return {
    fixture: known.fixture,
    rep: index + 1,
    attempt: 1,
    startedAt: '',
    request: { campaign: 'known', turn: 1, input: {}, caseFile: '', fixture: known.fixture, rep: index + 1 },
    response: known.response,
    error: null,
    exit: null,
    timings: { seedMs: 0, sutMs: 0, teardownMs: 0, totalMs: 0 },
    scratch: null,
    effects: {
      inserted: Object.fromEntries(Object.entries(inserted).map(([table, rows]) => [table, rows.length])),
      updated: counted(known.effects.updated),
      deleted: counted(known.effects.deleted),
      insertedRows: inserted,
      updatedRows: Object.fromEntries(
        Object.entries(known.effects.updated).flatMap(([table, rows]) =>
          Array.isArray(rows)
            ? [
                [
                  table,
                  rows.map((row) => ({
                    key: row.key,
                    changed: Object.fromEntries(
                      Object.entries(row.set).map(([column, after]) => [column, { before: null, after }]),
                    ),
                  })),
                ],
              ]
            : [],
        ),
      ),
      deletedRows: Object.fromEntries(
        Object.entries(known.effects.deleted).flatMap(([table, rows]) => (Array.isArray(rows) ? [[table, rows]] : [])),
      ),
    },
    outside: known.outside,
    toolCalls: known.toolCalls,
  };
}
