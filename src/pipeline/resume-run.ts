import { existsSync } from 'node:fs';
import { appendFile, readFile, rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { TurnkitError } from '../errors.js';
import { describeWriteError, shownPath } from '../util/shown-path.js';
import { sha256, type Manifest } from './manifest.js';
import type { RepRecord } from './rep-record.js';
import { repFileBase } from './run-dir.js';
import { ORDER_FILE, readManifest, type RepKey } from './run-state.js';
import type { QuestionFixture } from './resolve-fixtures.js';

/**
 * The question file a run uses: the one named, else, resuming, the one the run's manifest recorded (relative to the
 * project), so that `turnkit run --resume RUN_DIR` needs nothing the run directory does not already say.
 */
export async function questionFileOf(
  question: string | undefined,
  resume: string | undefined,
  cwd: string,
  projectDir: string,
): Promise<string> {
  if (question !== undefined) return resolve(cwd, question);
  if (resume === undefined)
    throw new TurnkitError('USAGE', 'turnkit run: name the question file (questions/ID.yaml), or --resume RUN_DIR');
  const manifest = await readManifest(resolve(cwd, resume));
  return resolve(projectDir, manifest.question.file.path);
}

/** Refuses to resume a run that is not the same experiment: question, rubric, template and fixtures, byte for byte. */
export function checkUnchanged(
  manifest: Manifest,
  texts: { question: string; rubric: string; template: string },
  fixtures: readonly QuestionFixture[],
  dir: string,
): void {
  const shown = shownPath(join(dir, 'manifest.json'));
  const refuse = (what: string): never => {
    throw new TurnkitError('BAD_INPUT', `${shown}: ${what} since this run started; start a new run`);
  };
  if (manifest.question.file.sha256 !== sha256(texts.question)) refuse('the question file changed');
  if (manifest.rubric.sha256 !== sha256(texts.rubric)) refuse(`the rubric ${manifest.rubric.path} changed`);
  if (manifest.caseFileTemplate.sha256 !== sha256(texts.template))
    refuse(`the case-file template ${manifest.caseFileTemplate.path} changed`);
  const now = new Set(fixtures.map(({ loaded }) => loaded.fixture.name));
  for (const recorded of manifest.fixtures)
    if (!now.has(recorded.name)) refuse(`fixture ${recorded.name} is no longer in the question`);
  for (const { loaded } of fixtures) {
    const recorded = manifest.fixtures.find((entry) => entry.name === loaded.fixture.name);
    if (!recorded) refuse(`fixture ${loaded.fixture.name} is new in the question`);
    if (recorded!.file.sha256 !== loaded.sha256) refuse(`fixture ${loaded.fixture.name} changed`);
  }
}

/** Appends a rep's start to order.jsonl as it happens: a run killed outright still shows what it had begun. */
export async function appendOrder(
  dir: string,
  entry: { fixture: string; rep: number; attempt: number },
): Promise<void> {
  const file = join(dir, ORDER_FILE);
  await appendFile(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 }).catch((error: NodeJS.ErrnoException) => {
    throw new TurnkitError('IO', `${shownPath(file)}: ${describeWriteError(error)}`);
  });
}

/** Moves an earlier record of a rep aside (rep-NN.attempt-K): evidence of a failure is never overwritten. */
export async function keepEarlierAttempt(dir: string, key: RepKey): Promise<void> {
  const base = join(dir, repFileBase(key.fixture, key.rep));
  if (!existsSync(`${base}.json`)) return;
  let attempt = 0;
  try {
    attempt = (JSON.parse(await readFile(`${base}.json`, 'utf8')) as RepRecord).attempt;
  } catch {
    // An unreadable record is kept all the same, under its own name.
  }
  for (const extension of ['json', 'md']) {
    if (existsSync(`${base}.${extension}`))
      await rename(`${base}.${extension}`, `${base}.attempt-${attempt}.${extension}`);
  }
}
