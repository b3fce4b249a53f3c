import { existsSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { serializeDocument } from '../fixture/format.js';
import { appendWhole } from '../util/process/append-whole.js';
import type { Manifest } from './manifest.js';
import type { MarkRow } from './marks/marks-file.js';
import { formatMarks } from './marks/format-marks.js';
import { appendMarkHistory, historyFileOf } from './marks/marks-history.js';
import { repMarkdown, type RepRecord } from './rep-record.js';
import { repFileBase, writeRunFile } from './run-layout.js';
import { ORDER_FILE, repRecordOf, type RepKey } from './run-state.js';

/** A mark replaced, as the history file keeps it: what it was, what it became, and what replaced it. */
interface MarkChange {
  before: MarkRow;
  after: MarkRow;
  by?: string;
}

/**
 * The one writer of a run directory: every file a run, a resume, a merge, a grader or a judge writes into it goes
 * through here, atomically or in whole lines (mode 0600), so that the format of a run lives in run-dir/ alone.
 */
export interface RunWriter {
  readonly dir: string;
  /** Any file of the run by its relative path (a case file, the rubric, a verdicts file, a blind seed). */
  file(relative: string, content: string, options?: { durable?: boolean }): Promise<void>;
  /** manifest.json. */
  manifest(manifest: Manifest): Promise<void>;
  /** A rep's record and its Markdown (the record last: it makes the rep done). */
  rep(record: RepRecord): Promise<void>;
  /** One rep's start appended to order.jsonl as it happens: a run killed outright still shows what it had begun. */
  order(entry: Manifest['order'][number]): Promise<void>;
  /** Moves an earlier record of a rep aside (rep-NN.attempt-K): evidence of a failure is never overwritten. */
  keepEarlierAttempt(key: RepKey): Promise<void>;
  /** A marks file of the run (`marks.csv`, `marks.NAME.csv`) with these rows. */
  marks(name: string, rows: readonly MarkRow[]): Promise<void>;
  /** Changes of marks appended to the history file beside a marks file of the run. */
  history(name: string, changes: readonly MarkChange[]): Promise<void>;
  /** Whole lines appended to a file of the run as they come (the judge cache's answers): a crash never tears one. */
  append(relative: string, lines: string): Promise<void>;
}

/**
 * The writer of the run directory `dir`.
 * @example
 * const write = runWriter(dir);
 * await write.manifest(manifest);
 * await write.marks('marks.checks.csv', rows);
 */
export function runWriter(dir: string): RunWriter {
  // Appends to order.jsonl one after another: two reps starting at once (a worker seeds its next rep while another's
  // SUT runs) would otherwise race their appends, and the file's order would differ from the manifest's.
  let orderWritten: Promise<void> = Promise.resolve();
  return {
    dir,
    file: (relative, content, options) => writeRunFile(dir, relative, content, options),
    manifest: (manifest) => writeRunFile(dir, 'manifest.json', serializeDocument(manifest)),
    async rep(record) {
      const base = repFileBase(record.fixture, record.rep);
      // The .json last, as it makes the rep done: a full disk never leaves a rep without its .md.
      await writeRunFile(dir, `${base}.md`, repMarkdown(record), { durable: false });
      await writeRunFile(dir, `${base}.json`, serializeDocument(record), { durable: false }).catch(async (error) => {
        await rm(join(dir, `${base}.md`), { force: true });
        throw error;
      });
    },
    order(entry) {
      const file = join(dir, ORDER_FILE);
      const line = `${JSON.stringify(entry)}\n`;
      // Whole lines only: a line torn by a kill is cut before a resume appends, so it never swallows the next entry.
      const appended = orderWritten.then(() => appendWhole(file, line));
      // A failed append fails its own caller; the next append still runs.
      orderWritten = appended.catch(() => undefined);
      return appended;
    },
    async keepEarlierAttempt(key) {
      const base = join(dir, repFileBase(key.fixture, key.rep));
      if (!existsSync(`${base}.json`)) return;
      // An unreadable record is kept all the same, under its own name.
      const attempt = repRecordOf(await readFile(`${base}.json`, 'utf8').catch(() => ''))?.attempt ?? 0;
      for (const extension of ['json', 'md']) {
        if (existsSync(`${base}.${extension}`))
          await rename(`${base}.${extension}`, `${base}.attempt-${attempt}.${extension}`);
      }
    },
    marks: (name, rows) => writeRunFile(dir, name, formatMarks(rows)),
    history: (name, changes) => appendMarkHistory(historyFileOf(join(dir, name)), changes),
    append: (relative, lines) => appendWhole(join(dir, relative), lines),
  };
}
