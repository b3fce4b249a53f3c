import { playersTexts } from '../report/format-players.js';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { report } from '../report/report.js';
import { agreement } from '../stats/agreement.js';
import type { ReadMark } from '../run-dir/marks/read-marks.js';
import { readRun, type Run } from '../run-dir/read-run.js';
import { repId } from '../run-dir/run-state.js';
import { planReps } from '../run-dir/rep-order.js';
import { shownInFolder, shownPath } from '../util/shown-path.js';
import { constructedDiff } from './constructed-diff.js';
import { rolloutView, turnMarkPairs } from './turn-views.js';
import type { AgreementView, FixtureView, MarkerRep, RepView, RunView } from './view-data.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import { markdownDoc } from './markdown-doc.js';
import { correctedSummary, trustLines } from '../report/format-trust.js';
import { formatTable } from '../util/text-table.js';
import { formatHeldoutLooks, type HeldoutLooks } from '../report/heldout-ledger.js';

/** Options of `buildRunView`: the same as `turnkit report`'s. */
export interface RunViewOptions {
  dir: string;
  marks?: string | undefined;
  compare?: string | undefined;
  compareMarks?: string | undefined;
  /** A calibration file to correct a judge's rates with. */
  calibration?: string | undefined;
  /** The folder `dir`, `marks` and `compare` are relative to (the command line's: the shell's). */
  cwd: string;
  /** The held-out set's looks, when the command that shows the run recorded one in the ledger (see `RunView`). */
  heldoutLooks?: HeldoutLooks | undefined;
}

/**
 * Reads a run into what its page shows: the report (the library's own numbers, as `report --json` prints them),
 * every agreement with its confusion matrix and disagreements, each fixture's case file and recorded diff once, and
 * every rep with its marks in each marks file of the run.
 */
export async function buildRunView(options: RunViewOptions): Promise<RunView> {
  const cwd = options.cwd;
  const dir = resolve(cwd, options.dir);
  // One reader for the report and the page: every rep record and marks file is read once.
  const run = await readRun(dir);
  const state = await run.reps();
  const result = await report({ cwd, paths: { baseDir: cwd } }, { ...options, dir, run });
  const { manifest } = run;
  const marksFiles = [result.report.marksFile, ...(await otherMarksFiles(run, result.report.marksFile))];
  const marks: Map<string, ReadMark>[] = [];
  for (const file of marksFiles)
    marks.push(file === result.report.marksFile ? await run.marks(file) : await run.marks(file).catch(() => new Map()));
  const agreements: AgreementView[] = [];
  for (const entry of result.report.agreements) {
    const a = marks[marksFiles.indexOf(join(dir, entry.against))] ?? (await run.marks(entry.against));
    const b = marks[marksFiles.indexOf(join(dir, entry.file))] ?? (await run.marks(entry.file));
    agreements.push({ file: entry.file, against: entry.against, self: entry.self, ...agreement(a, b) });
  }
  const fixtures: FixtureView[] = [];
  for (const entry of manifest.fixtures) {
    const caseFile = await run.caseFile(entry.name);
    const diff = entry.bases ? await constructedDiff(dir, entry.file, cwd) : null;
    fixtures.push({ name: entry.name, tag: entry.tag ?? null, caseFile, caseFileDoc: markdownDoc(caseFile), diff });
  }
  const index = new Map(manifest.fixtures.map((entry, i) => [entry.name, i]));
  const keys = planReps(
    manifest.fixtures.map((entry) => entry.name),
    manifest.question.reps,
    manifest.shard,
  ).sort((a, b) => index.get(a.fixture)! - index.get(b.fixture)! || a.rep - b.rep);
  const reps = keys.map((key): RepView => {
    const record = state.records.get(repId(key));
    const id = repId(key);
    const turnMarks = marks.map((file) => turnMarkPairs(file.get(id)?.turnMarks));
    const { rollout, ...content } = repContent(index.get(key.fixture)!, key.rep, record);
    return {
      ...content,
      marks: marks.map((file) => {
        const row = file.get(id);
        return row ? [row.mark, row.note] : null;
      }),
      ...(rollout ? { rollout } : {}),
      ...(turnMarks.some((pairs) => pairs.length > 0) ? { turnMarks } : {}),
    };
  });
  const rubric = await run.rubric();
  return {
    dir: shownPath(dir),
    // Paths as a reader of the page knows them: relative to where the report was made, not this machine's root.
    report: {
      ...result.report,
      dir: shownPath(dir),
      marksFile: shownInFolder(dir, result.report.marksFile),
      ...(result.report.marksSources
        ? {
            marksSources: {
              ...result.report.marksSources,
              files: result.report.marksSources.files.map((file) => shownInFolder(dir, file)),
            },
          }
        : {}),
    },
    comparison: result.comparison ? { ...result.comparison, otherDir: shownPath(result.comparison.otherDir) } : null,
    playersText: result.comparison?.players ? playersTexts(result.comparison.players) : null,
    agreements,
    // Only on the page of a run that holds fixtures out (a viewer serving several shows it on those).
    heldout:
      options.heldoutLooks && fixtures.some((fixture) => fixture.tag === 'heldout')
        ? formatHeldoutLooks(options.heldoutLooks)
        : null,
    trust: {
      summary: correctedSummary(result.report.trust, result.report.target) ?? null,
      lines: trustLines(result.report.trust, result.report.target, formatTable, (text) => text),
    },
    rubric,
    rubricDoc: markdownDoc(rubric),
    fixtures,
    marksFiles: marksFiles.map((file) => shownInFolder(dir, file)),
    reps,
  };
}

/**
 * What a rep's page shows of its record alone (no marks file's say): the page's rep list and the marker's pages of
 * reps build it the same way.
 */
export function repContent(f: number, rep: number, record: RepRecord | undefined): MarkerRep {
  const rollout = rolloutView(record);
  return {
    f,
    rep,
    status: !record ? 'not run' : record.error ? 'error' : 'ok',
    response: rollout ? null : (record?.response ?? null),
    error: record?.error ?? null,
    stdoutTail: record?.stdoutTail,
    stderrTail: record?.stderrTail,
    effects: record?.effects ?? null,
    ...(record?.toolCalls?.length ? { toolCalls: record.toolCalls } : {}),
    outside: record?.outside,
    sutMs: record && record.error?.stage !== 'seed' ? record.timings.sutMs : null,
    ...(rollout ? { rollout } : {}),
  };
}

async function otherMarksFiles(run: Run, main: string): Promise<string[]> {
  // A listed name that is not there to read (a dangling link) is no marks file of the page.
  return (await run.marksFileNames())
    .map((name) => join(run.dir, name))
    .filter((file) => file !== main && existsSync(file));
}
