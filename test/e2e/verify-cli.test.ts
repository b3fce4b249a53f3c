import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInProcess } from '../helpers/cli-in-process.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('turnkit verify on a file with problems of both kinds', () => {
  let project: string;
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-verify-'));
    await mkdir(join(project, 'fixtures'));
    const fixture = JSON.parse(await readFile(join(REPO, 'fixtures/meridian-turn-23.json'), 'utf8'));
    // A schema problem in one table, and a reference to no row in another.
    fixture.tables.characters.columns[0].nullable = 'no';
    fixture.tables.world_facts.rows[0].introduced_at_turn_id = '40';
    await writeFile(join(project, 'fixtures', 'both.json'), `${JSON.stringify(fixture, null, 2)}\n`);
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('lists the schema problem and the dangling reference together, not the second only once the first is fixed', async () => {
    const result = await runInProcess(['verify', 'fixtures/both.json'], { cwd: project });
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'fixtures/both.json: $.tables.characters.columns[0].nullable: expected true or false, got "no"',
      'fixtures/both.json: $.tables.world_facts.rows[0]: foreign key world_facts_introduced_at_turn_id_fkey (40) has no row in "turns" (foreignKeys[1])',
    ]);
  });
});
