import { existsSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { shownPath } from '../util/shown-path.js';
import { TurnkitError } from '../errors.js';
import type { JudgeChecksResult } from '../judge/judge-checks.js';
import type { ReportResult } from '../report/report.js';
import type { AgreeResult } from '../marking/agree.js';
import type { JudgeModelResult } from '../judge/judge-model.js';
import type { JudgeSettings } from '../config/judge-settings.js';
import type { RunProgress, RunResult } from '../app/run-question.js';
import { runStamp } from '../run-dir/run-layout.js';
import type { DemoRollout } from './demo-rollout.js';

/**
 * Where the demo's embedded database lives in its folder: the sample game's config's (the folder is new, so it has
 * no config file of its own).
 */
export const DEMO_DATA_DIR = join('.turnkit', 'postgres');

/** Options of `turnkit demo`. */
export interface DemoOptions {
  /** The demo's own folder (default `.turnkit/demo/STAMP` under the working directory); must not exist or be empty. */
  dir?: string | undefined;
  cwd?: string | undefined;
  /** Reps per fixture (default 10, as ev2 runs). */
  reps?: number | undefined;
  /** Each step as it starts, one line. */
  onStep?: (line: string) => void;
  onProgress?: (progress: RunProgress) => void;
  /** An LLM judge to mark the reps with too; its agreement with the checks is measured. */
  judge?: JudgeSettings | undefined;
}

/** Everything the demo made, and the report it ends with. */
export interface DemoResult {
  dir: string;
  campaign: string;
  fixture: string;
  constructed: string;
  run: RunResult;
  checks: JudgeChecksResult;
  report: ReportResult['report'];
  /** The report as one self-contained HTML page, in the run directory. */
  html: string;
  /** With a judge: what it wrote and how far it agrees with the checks. */
  judged?: { result: JudgeModelResult; agreement: AgreeResult } | undefined;
  /** The short rollout: several turns per rep from the same fixtures, and how many reps survive each turn. */
  rollout: DemoRollout;
  /** How long the steps that do the demo's work took (ms), against which its fixed costs are measured. */
  timings: { sampleMs: number; captureMs: number; runMs: number; rolloutMs: number };
}

/**
 * The whole loop on the embedded database, in a folder of its own: migrate the sample game and create a campaign
 * (a live session stand-in), capture the turn where the sample SUT goes wrong, construct the fixture that corrects
 * the upstream narration, run the sample question over both, mark the reps with its deterministic checks (and a
 * judge, when one is given, with its agreement with the checks), and report base against constructed.
 */
export async function demo(options: DemoOptions = {}): Promise<DemoResult> {
  const cwd = options.cwd ?? process.cwd();
  const dir = resolve(cwd, options.dir ?? join('.turnkit', 'demo', runStamp(new Date())));
  if (existsSync(dir) && !(await stat(dir)).isDirectory())
    throw new TurnkitError('EXISTS', `${shownPath(dir)}: not a folder; the demo starts in a folder of its own`);
  if (existsSync(dir) && (await readdir(dir)).length > 0)
    throw new TurnkitError('EXISTS', `${shownPath(dir)}: not empty; the demo starts in a folder of its own`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const step = options.onStep ?? (() => {});
  // No config file in the folder: the sample game's config applies, and its embedded database lives in the folder.
  const common = { cwd: dir, embedded: true as const };
  // The steps' modules (capture, run, report, ...) load while the database starts, rather than before it.
  const steps = import('./demo-steps.js');
  steps.catch(() => {}); // seen below, once the database is open (and closed again whatever happens)
  const [{ loadConfig }, { openDb }] = await Promise.all([import('../config/load.js'), import('../db/connect.js')]);
  const config = await loadConfig({ cwd: dir });
  // One embedded server for the whole demo: this process starts it, each step joins it, and it stops at the end.
  const db = await openDb(config, { embedded: true });
  try {
    const { demoSteps } = await steps;
    return await demoSteps(dir, common, step, options);
  } finally {
    await db.close();
  }
}
