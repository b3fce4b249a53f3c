import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sampleGameWithFixture } from './sample-fixture.js';
import type { TestDb } from './test-db.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';

/** A sample-game test database with a fixture file, a rubric and a case-file template, ready for questions. */
export interface FaultProject {
  t: TestDb;
  fixture: Fixture;
  /** The live campaign the fixture was captured from. */
  campaign: string;
  /** Writes `NAME.sh` (mode 0755) and `questions/ID.yaml` running it; returns the question's path. */
  question(id: string, script: string, options?: { reps?: number; timeout?: number; checks?: string }): Promise<string>;
}

/** A project for fault tests on a backend: the sample game with another campaign, and `fixtures/base.json`. */
export async function faultProject(
  backend: 'embedded' | 'postgres',
  /** `admin`: the server to make the database on (default TEST_DATABASE_URL's). */
  options: { turns?: number; admin?: string } = {},
): Promise<FaultProject> {
  const { t, fixture, campaign } = await sampleGameWithFixture(backend, {
    turns: options.turns ?? 12,
    turn: 8,
    otherTurns: 6,
    admin: options.admin,
  });
  for (const folder of ['fixtures', 'questions']) await mkdir(join(t.dir, folder), { recursive: true });
  await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument({ ...fixture, name: 'base' }));
  await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when right\n');
  await writeFile(join(t.dir, 'questions/case.md'), '# {{fixture.name}}\n\n{{input}}\n');
  return {
    t,
    fixture,
    campaign,
    async question(id, script, more = {}) {
      await writeFile(join(t.dir, `${id}.sh`), script);
      await chmod(join(t.dir, `${id}.sh`), 0o755);
      const lines = [
        `id: ${id}`,
        'question: Does it hold?',
        'rubric: { path: questions/rubric.md, version: 1 }',
        'target: 0.9',
        `reps: ${more.reps ?? 2}`,
        'fixtures: [fixtures/base.json]',
        `sut: { type: command, command: ["./${id}.sh"], timeout: ${more.timeout ?? 60} }`,
        'caseFile: questions/case.md',
        ...(more.checks ? [more.checks] : []),
        '',
      ];
      await writeFile(join(t.dir, `questions/${id}.yaml`), lines.join('\n'));
      return `questions/${id}.yaml`;
    },
  };
}
