import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProjectContext } from '../project/project-context.js';
import { buildManifest } from './build-manifest.js';
import type { OpenedRun, RunSetting } from './opened-run.js';
import type { RunPlan } from './prepare-run.js';
import type { RunInput } from './run-input.js';
import { createRunDir } from '../run-dir/run-layout.js';
import { RUBRIC_FILE } from '../run-dir/run-file-names.js';
import { runWriter } from '../run-dir/run-writer.js';
import { planReps, startOrder } from '../run-dir/rep-order.js';
import { ORDER_FILE } from '../run-dir/run-state.js';
import { inheritedEnv } from '../sut/secret-names.js';
import { gitState, machineOf, sutFiles } from './run-provenance.js';

/**
 * Step 2 of a new run: creates `runs/QUESTION/STAMP/` and writes its manifest first, then the case files and the
 * rubric as the reps are given them. When those first files cannot be written (a full disk) the folder is removed.
 */
export async function startRunDir(
  project: Pick<ProjectContext, 'paths'>,
  plan: RunPlan,
  input: RunInput,
  setting: RunSetting,
): Promise<OpenedRun> {
  const q = plan.question.question;
  const { shard } = input;
  const reps = input.reps ?? q.reps;
  const names = plan.fixtures.map(({ loaded }) => loaded.fixture.name);
  const all = planReps(names, reps, shard);
  // Read before the folder exists: a SUT file that cannot be read stops the run with no folder left behind.
  const provenance = {
    git: await gitState(project.paths.baseDir, inheritedEnv(input.env), input.signal),
    machine: machineOf(),
    sutFiles: await sutFiles(project.paths.baseDir, q.sut),
  };
  const dir = await createRunDir(
    project.paths.runs,
    q.id,
    setting.now,
    shard ? `-shard-${shard.index}-of-${shard.count}` : '',
    shard ? input.runName : undefined,
  );
  const manifest = buildManifest({
    question: plan.question,
    rubricText: plan.rubricText,
    rubricPath: plan.rubricPath,
    template: plan.template,
    templatePath: plan.templatePath,
    fixtures: plan.fixtures,
    projectDir: project.paths.baseDir,
    reps,
    concurrency: setting.concurrency,
    now: setting.now,
    backend: setting.backend,
    serverVersion: setting.serverVersion,
    strategy: input.strategy ?? 'remap',
    shard,
    provenance,
  });
  try {
    const write = runWriter(dir);
    await write.manifest(manifest);
    for (const [name, text] of plan.caseFiles) await write.file(join('case-files', `${name}.md`), text);
    // The rubric as the run used it, beside the reps: the marker shows it and judges read it from here.
    await write.file(RUBRIC_FILE, plan.rubricText);
  } catch (error) {
    // A new run that cannot write its first files (a full disk) has no rep to resume: it goes whole, not half made.
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  // Reps start round by round, each round the other way round (recorded in order.jsonl as they start).
  return { dir, manifest, all, pending: startOrder(names, all), attempt: 1, warnings: [] };
}

/**
 * Removes a new run directory that failed before its first rep began (a game config the database refutes, found
 * once the run had its folder): it holds no rep to resume, report or view, so it goes whole rather than stay a run
 * that looks interrupted. True when it was removed; a resumed run, or one with a rep begun, is kept.
 */
export async function discardUnbegunRun(opened: OpenedRun): Promise<boolean> {
  const { dir, manifest } = opened;
  if (manifest.resumed !== undefined || manifest.order.length > 0 || existsSync(join(dir, ORDER_FILE))) return false;
  await rm(dir, { recursive: true, force: true });
  return true;
}
