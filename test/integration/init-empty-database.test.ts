import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/cli-in-process.js';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';

// On an empty database `init` writes the sample game's config: with it, as written, the sample game migrates,
// samples and captures (capture refused before: the sample's users.handle and users.display_name had no rule).
describe.each(BACKENDS)('init on an empty database, then the sample game, on %s', (backend) => {
  let t: TestDb;
  let project: string;
  beforeAll(async () => {
    // Any game other than the sample's gives an empty database.
    t = await createTestDb(backend, {
      game: { root: { table: 'x', key: 'id' }, turns: { table: 'y', order: 'n', input: ['i'] } },
    });
    project = join(t.dir, 'project');
    await mkdir(project);
  });
  afterAll(async () => t?.cleanup());

  it('writes a config with which db migrate, sample and capture work with no edit', async () => {
    const env = { DATABASE_URL: t.db.url };
    const cli = (...args: string[]) => runInProcess(args, { cwd: project, env });
    const init = await cli('init', '--yes');
    expect(init.code, init.stderr).toBe(0);
    const config = await readFile(join(project, 'turnkit.config.ts'), 'utf8');
    for (const rule of ["'users.handle': 'username'", "'users.display_name': 'name'", "'users.email': 'email'"])
      expect(config).toContain(rule);
    const migrated = await cli('db', 'migrate');
    expect(migrated.code, migrated.stderr).toBe(0);
    const sampled = await cli('sample', '--turns', '30');
    expect(sampled.code, sampled.stderr).toBe(0);
    const campaign = sampled.stdout.trim();
    const captured = await cli('capture', '--campaign', campaign, '--turn', '23');
    expect(captured.code, captured.stderr).toBe(0);
    expect(captured.stdout).toMatch(/^wrote fixtures\/campaign-\d+-turn-23\.json \(turn 23, /);
  }, 120_000);
});
