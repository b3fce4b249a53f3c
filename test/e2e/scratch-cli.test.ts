import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { runInProcess } from '../helpers/cli-in-process.js';
import { copyEmbedded } from '../helpers/embedded-copy.js';

describe('scratch campaigns through the CLI, with a game connected to the printed URL', () => {
  let project: string;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-e2e-scratch-'));
    await copyEmbedded(project, 'empty');
    expect((await runInProcess(['sample', '--turns', '30'], { cwd: project })).code).toBe(0);
    expect(
      (await runInProcess(['capture', '--campaign', '1', '--turn', '23', '--name', 'probe'], { cwd: project })).code,
    ).toBe(0);
    // The embedded server stays up after each command, as `turnkit db start` keeps it for a game played by hand.
    expect((await runInProcess(['db', 'start'], { cwd: project })).code).toBe(0);
  });
  afterAll(async () => {
    if (project) {
      await runInProcess(['db', 'stop', '--force'], { cwd: project });
      await rm(project, { recursive: true, force: true });
    }
  });

  it('seeds, lets the game play turn 23 under the printed key, and tears down what both wrote', async () => {
    const seeded = await runInProcess(['seed', 'fixtures/probe.json', '--check', '--show-password'], { cwd: project });
    expect(seeded.code, seeded.stderr).toBe(0);
    const printed = Object.fromEntries(
      seeded.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
    );
    expect(printed.key).toBe('2');
    expect(printed.id).toMatch(/^scratch-[0-9a-f]{12}$/);
    expect(seeded.stderr).toContain('check: the scratch campaign equals the fixture (modulo keys)');
    expect(seeded.stderr).not.toContain('embedded server stops');

    const game = new pg.Client({ connectionString: printed.DATABASE_URL });
    await game.connect();
    try {
      const turns = await game.query('SELECT count(*)::int AS n FROM turns WHERE campaign_id = $1', [printed.key]);
      expect(turns.rows[0].n).toBe(22);
      await game.query(
        `INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($1, 23, 'x', 'the game answers', now(), 1)`,
        [printed.key],
      );
    } finally {
      await game.end();
    }

    const gc = await runInProcess(['gc'], { cwd: project });
    expect(gc.stdout).toContain(`kept ${printed.id} (probe): seeded by hand`);
    const torn = await runInProcess(['teardown', printed.id!], { cwd: project });
    expect(torn.code, torn.stderr).toBe(0);
    expect(torn.stdout).toBe(`removed ${printed.id} (probe, key 2): 67 rows; of which the game added 1 in turns\n`);
    const again = await runInProcess(['teardown', printed.id!], { cwd: project });
    expect(again).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `no scratch campaign "${printed.id}" in the registry (torn down already?)\n`,
    });
    // Without --show-password the URL has no password (the embedded server asks for one), and seed says how to get it.
    const hidden = await runInProcess(['seed', 'fixtures/probe.json', '--json'], { cwd: project });
    expect(hidden.code, hidden.stderr).toBe(0);
    const hiddenResult = JSON.parse(hidden.stdout);
    expect(hiddenResult).toMatchObject({ passwordLeftOut: true });
    expect(new URL(hiddenResult.databaseUrl).password).toBe('');
    expect((await runInProcess(['teardown', hiddenResult.id], { cwd: project })).code).toBe(0);
  });

  it('seeds with the database strategy on the embedded server, and tears it down', async () => {
    const seeded = await runInProcess(['seed', 'fixtures/probe.json', '--strategy', 'database', '--json'], {
      cwd: project,
    });
    expect(seeded.code).toBe(0);
    const result = JSON.parse(seeded.stdout);
    expect(result).toMatchObject({ strategy: 'database' });
    expect(new URL(result.databaseUrl).pathname).toMatch(/^\/turnkit_scratch_/);
    expect((await runInProcess(['teardown', result.id], { cwd: project })).code).toBe(0);
  });
});
