import { cp, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject } from 'vitest';
import { runCli } from './cli.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A project with the embedded database, the sample campaign, and the repo's fixtures, questions and sample SUT.
 */
export async function sampleProject(prefix: string): Promise<string> {
  const project = await mkdtemp(join(tmpdir(), prefix));
  await cp(inject('pgdataSampleTemplate'), join(project, '.turnkit', 'pgdata'), { recursive: true });
  for (const folder of ['fixtures', 'constructed', 'questions', 'examples']) await cp(join(REPO, folder), join(project, folder), { recursive: true });
  // The sample SUT imports pg.
  await symlink(join(REPO, 'node_modules'), join(project, 'node_modules'), 'dir');
  expect(await runCli(['sample', '--turns', '40'], { cwd: project })).toMatchObject({ code: 0, stdout: '1\n' });
  return project;
}
