import { join } from 'node:path';
import { serializeDocument } from '../fixture/format.js';
import type { ProjectContext } from '../project/project-context.js';
import { buildManifest } from './build-manifest.js';
import type { OpenedRun, RunSetting } from './opened-run.js';
import type { RunPlan } from './prepare-run.js';
import type { RunInput } from './run-input.js';
import { createRunDir, RUBRIC_FILE, writeRunFile } from './run-dir.js';
import { planReps } from './run-plan.js';

/**
 * Step 2 of a new run: creates `runs/QUESTION/STAMP/` and writes its manifest first, then the case files and the
 * rubric as the reps are given them.
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
  const all = planReps(
    plan.fixtures.map(({ loaded }) => loaded.fixture.name),
    reps,
    shard,
  );
  const dir = await createRunDir(
    project.paths.runs,
    q.id,
    setting.now,
    shard ? `-shard-${shard.index}-of-${shard.count}` : '',
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
  });
  await writeRunFile(dir, 'manifest.json', serializeDocument(manifest));
  for (const [name, text] of plan.caseFiles) await writeRunFile(dir, join('case-files', `${name}.md`), text);
  // The rubric as the run used it, beside the reps: the marker shows it and judges read it from here.
  await writeRunFile(dir, RUBRIC_FILE, plan.rubricText);
  return { dir, manifest, all, pending: all, attempt: 1, warnings: [] };
}
