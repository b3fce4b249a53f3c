import { cp, mkdir, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { runCli } from './cli.js';
import { copyEmbedded } from './embedded-copy.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The committed files of the sample project, by name: a copy of whole folders would carry a person's leftovers
 * (a constructed fixture saved while trying the editor) into a test that verifies every file it finds.
 */
export const SAMPLE_PROJECT_FILES = [
  'fixtures/meridian-turn-23.json',
  'constructed/meridian-turn-23-deck-fixed.json',
  'questions/places.yaml',
  'questions/places-rubric.md',
  'questions/case-file.md',
  'examples/sample-sut.mjs',
  'examples/judge.yaml',
];

/** Copies the sample project's committed files (and no other) into a folder. */
export async function copySampleFiles(project: string): Promise<void> {
  for (const file of SAMPLE_PROJECT_FILES) {
    await mkdir(dirname(join(project, file)), { recursive: true });
    await cp(join(REPO, file), join(project, file));
  }
}

/**
 * A project with the embedded database, the sample campaign, and the repo's fixtures, questions and sample SUT.
 */
export async function sampleProject(prefix: string): Promise<string> {
  const project = await unsampledProject(prefix);
  expect(await runCli(['sample', '--turns', '40'], { cwd: project })).toMatchObject({ code: 0, stdout: '1\n' });
  return project;
}

/**
 * The same project before `turnkit sample` has run: the sample game's schema and no campaign yet (for a test that
 * runs `turnkit sample` itself).
 */
export async function unsampledProject(prefix: string): Promise<string> {
  const project = await mkdtemp(join(tmpdir(), prefix));
  await copyEmbedded(project, 'sample');
  await copySampleFiles(project);
  // The sample SUT imports pg.
  await symlink(join(REPO, 'node_modules'), join(project, 'node_modules'), 'dir');
  return project;
}

/**
 * A project that runs the sample questions (the embedded database with the sample game's migrations, the sample
 * files) but has no live campaign to capture: no process is started to make it, unlike `sampleProject`.
 */
export async function sampleRunProject(prefix: string): Promise<string> {
  const project = await mkdtemp(join(tmpdir(), prefix));
  await copyEmbedded(project, 'sample');
  await copySampleFiles(project);
  // A module or command SUT may import pg.
  await symlink(join(REPO, 'node_modules'), join(project, 'node_modules'), 'dir');
  return project;
}
