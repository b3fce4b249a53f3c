import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BIN, runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { loadConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { copyEmbedded } from '../helpers/embedded-copy.js';

describe('the capture workflow through the CLI', () => {
  let project: string;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-e2e-'));
    await copyEmbedded(project, 'empty');
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('builds a binary that npx can execute', async () => {
    // npx runs the bin through the shell: without the executable bit a fresh clone's quick start fails.
    expect((await stat(BIN)).mode & 0o111).toBe(0o111);
  });

  it('samples a campaign, captures turn 23, verifies and shows it', async () => {
    expect(await runInProcess(['sample', '--turns', '40'], { cwd: project })).toMatchObject({ code: 0, stdout: '1\n' });
    const captured = await runInProcess(['capture', '--campaign', '1', '--turn', '23'], { cwd: project });
    expect(captured.code, captured.stderr).toBe(0);
    expect(captured.stdout).toBe('wrote fixtures/campaign-1-turn-23.json (turn 23, 8 tables, 67 rows)\n');
    // One line per table no turn places, each with what fits it: here standing rows, nothing to do.
    expect(captured.stderr).toContain(
      "warning: campaign-1-turn-23: decks: 4 of 4 row(s) belong to no turn and show the database after turn 40, not before turn 23; standing rows (rows of a turn reference them), as the root's: nothing to do\n",
    );
    expect(existsSync(join(project, 'fixtures', 'turnkit.fixture.schema.json'))).toBe(true);

    const verified = await runInProcess(['verify'], { cwd: project });
    expect(verified).toMatchObject({ code: 0, stdout: 'ok fixtures/campaign-1-turn-23.json\n1 file(s) verified\n' });

    const shown = await runInProcess(['show', 'fixtures/campaign-1-turn-23.json', '--json'], { cwd: project });
    const summary = JSON.parse(shown.stdout);
    expect(summary).toMatchObject({ name: 'campaign-1-turn-23', turn: 23, latestTurn: 40, turnsKept: 22 });
    expect(summary.input.player_input).toMatch(/mess hall/);
    expect(summary.tables.find((table: { name: string }) => table.name === 'turns').rows).toBe(22);
  });

  it('refuses to overwrite without --force and overwrites with it', async () => {
    const file = join(project, 'fixtures', 'campaign-1-turn-23.json');
    const before = await readFile(file, 'utf8');
    const refused = await runInProcess(['capture', '--campaign', '1', '--turn', '23'], { cwd: project });
    expect(refused.code).toBe(1);
    expect(await readFile(file, 'utf8')).toBe(before);
    const forced = await runInProcess(['capture', '--campaign', '1', '--turn', '23', '--force', '--json'], {
      cwd: project,
    });
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout).fixtures).toEqual([{ name: 'campaign-1-turn-23', turn: 23, tables: 8, rows: 67 }]);
    const after = await readFile(file, 'utf8');
    expect(after.replace(/"capturedAt": "[^"]+"/, '')).toBe(before.replace(/"capturedAt": "[^"]+"/, ''));
  });

  it('capture --force over a fixture a constructed fixture stands on names it and says to rebase it', async () => {
    await writeFile(
      join(project, 'fix-19.json'),
      JSON.stringify({ turns: [{ id: '19', narration: 'The mess hall is on deck 2.' }] }),
    );
    const made = await runInProcess(
      [
        'construct',
        'fixtures/campaign-1-turn-23.json',
        '--turn',
        '19',
        '--patch',
        'fix-19.json',
        '--name',
        'deck-fixed',
        '--why',
        'deck 2',
      ],
      { cwd: project },
    );
    expect(made.code, made.stderr).toBe(0);
    // A recapture has a new capture time: new bytes, so the constructed fixture's recorded hash no longer holds.
    const forced = await runInProcess(['capture', '--campaign', '1', '--turn', '23', '--force'], { cwd: project });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr.split('\n')).toContain(
      'warning: fixtures/campaign-1-turn-23.json was replaced, and constructed/deck-fixed.json stands on its old bytes; run: turnkit rebase constructed/deck-fixed.json',
    );
    const rebased = await runInProcess(['rebase', 'constructed/deck-fixed.json'], { cwd: project });
    expect(rebased.code, rebased.stderr).toBe(0);
    expect(rebased.stdout).toContain('constructed/deck-fixed.json: rebased onto fixtures/campaign-1-turn-23.json');
    // Without --force nothing is replaced, and nothing is said about what stands on it.
    const refused = await runInProcess(['capture', '--campaign', '1', '--turn', '23'], { cwd: project });
    expect(refused.stderr).not.toContain('stands on');
    await rm(join(project, 'constructed'), { recursive: true });
  });

  it('captures a range into one file per turn with --name', async () => {
    const result = await runInProcess(
      ['capture', '--campaign', '1', '--turns', '2..4', '--name', 'opening', '--out', 'early'],
      { cwd: project },
    );
    expect(result.code, result.stderr).toBe(0);
    for (const turn of [2, 3, 4]) {
      const fixture = JSON.parse(await readFile(join(project, 'early', `opening-turn-${turn}.json`), 'utf8'));
      expect(fixture.tables.turns.rows).toHaveLength(turn - 1);
    }
  });

  it('keeps the embedded server running for other processes after `db start`, until `db stop`', async () => {
    const pidFile = join(project, '.turnkit', 'postgres', 'data', 'postmaster.pid');
    const started = await runCli(['db', 'start'], { cwd: project });
    expect(started.code, started.stderr).toBe(0);
    const url = started.stdout.trim();
    try {
      // Printed without the server's password, once it is ready; `db url --show-password` gives the URL a SUT uses.
      expect(url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
      expect(started.stderr).toMatch(/^embedded database started; it stays up until turnkit db stop/);
      expect(existsSync(pidFile)).toBe(true);
      expect(await runInProcess(['db', 'url'], { cwd: project })).toMatchObject({ code: 0, stdout: `${url}\n` });
      const status = await runInProcess(['db', 'status', '--json'], { cwd: project });
      expect(JSON.parse(status.stdout)).toMatchObject({ running: true, kept: true, users: 0 });
      const shown = await runInProcess(['db', 'url', '--show-password'], { cwd: project });
      expect(shown.code, shown.stderr).toBe(0);
      const full = shown.stdout.trim();
      expect(full).toMatch(/^postgres:\/\/postgres:[A-Za-z0-9_-]{32}@127\.0\.0\.1:\d+\/postgres$/);
      expect(full.replace(/:[A-Za-z0-9_-]{32}@/, '@')).toBe(url);
      // The plain URL without the password is refused.
      const plain = new pg.Client({ connectionString: url });
      await expect(plain.connect()).rejects.toThrow(/password/);
      await plain.end().catch(() => {});
      // A second turnkit process uses the same server, and leaves it running.
      const captured = await runCli(['capture', '--campaign', '1', '--latest', '--out', 'latest'], { cwd: project });
      expect(captured.code, captured.stderr).toBe(0);
      expect(existsSync(pidFile)).toBe(true);
      // And any other client (a SUT) connects with the URL and its password.
      const client = new pg.Client({ connectionString: full });
      await client.connect();
      const { rows } = await client.query('SELECT count(*)::int AS n FROM turns WHERE campaign_id = 1');
      await client.end();
      expect(rows[0].n).toBe(40);
    } finally {
      expect(await runCli(['db', 'stop'], { cwd: project })).toMatchObject({
        code: 0,
        stdout: 'stopped the embedded database\n',
      });
    }
    expect(existsSync(pidFile)).toBe(false);
    expect(await runInProcess(['db', 'status'], { cwd: project })).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^not running/),
    });
    // Stopped cleanly: the next command starts it again and finds every row, and stops it as it ends.
    const again = await runInProcess(['capture', '--campaign', '1', '--turn', '40', '--out', 'again'], {
      cwd: project,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
  });

  it('scaffolds a config with init that later commands load', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'turnkit-init-'));
    try {
      // turnkit is not installed in this folder (run through npx, say): the scaffold must load all the same.
      const result = await runInProcess(['init'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('created turnkit.config.ts');
      for (const folder of ['fixtures', 'constructed', 'questions']) expect(existsSync(join(dir, folder))).toBe(true);
      const again = await runInProcess(['init'], { cwd: dir });
      expect(again).toMatchObject({
        code: 1,
        stderr: 'turnkit.config.ts: already exists (use --force to overwrite)\n',
      });
      // The starter question verifies before any capture; its fixture glob matches nothing yet, which verify notes.
      const verified = await runInProcess(['verify'], { cwd: dir });
      expect(verified).toMatchObject({
        code: 0,
        stdout: 'ok questions/starter.yaml ("fixtures/*.json" matches no file yet)\n1 file(s) verified\n',
      });
      // The scaffold describes the sample game, ready to edit.
      expect((await loadConfig({ cwd: dir })).game).toEqual(configSchema.parse(sampleGameConfig).game);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 on wrong usage and 0 on --help', async () => {
    expect((await runCli(['frobnicate'], { cwd: project })).code).toBe(2);
    const help = await runCli(['--help'], { cwd: project });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('capture');
  });
});
