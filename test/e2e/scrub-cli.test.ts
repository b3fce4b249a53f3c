import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { SAMPLE_PLAYER_EMAIL, SAMPLE_PLAYER_PASSWORD_HASH } from '../../src/sample/create-sample.js';
import { DEMO_SCRUB_KEY } from '../../src/fixture/scrub/demo-key.js';
import { copyEmbedded } from '../helpers/embedded-copy.js';

// The sample game's config without its scrub rules, as a project would have it before this feature.
const UNRULED = JSON.stringify({
  game: {
    root: { table: 'campaigns', key: 'id' },
    turns: { table: 'turns', order: 'turn_number', input: ['player_input'] },
    shared: ['users'],
  },
});

describe('capture, show and verify of sensitive data through the binary', () => {
  let project: string;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-scrub-'));
    await copyEmbedded(project, 'empty');
    expect(await runCli(['sample', '--turns', '30'], { cwd: project })).toMatchObject({ code: 0, stdout: '1\n' });
    await writeFile(join(project, 'unruled.json'), UNRULED);
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('refuses a capture of unscrubbed sign-in data, listing each column and a block to paste, and writes nothing', async () => {
    const result = await runCli(['capture', '--config', 'unruled.json', '--campaign', '1', '--turn', '23'], {
      cwd: project,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      'campaign-1-turn-23: capture refused: 4 column(s) or value(s) look like personal or secret data and have no scrub rule in ' +
        'unruled.json (add rules, keep what is fine, or capture anyway with --allow-sensitive)',
      'users.handle: looks like a username (name)',
      "users.display_name: looks like a person's name (name)",
      'users.email: looks like an email address (name)',
      'users.password_hash: looks like a secret (name)',
      'rules to paste into the config (check each):',
      '"scrub": {',
      '  "users.handle": "username",',
      '  "users.display_name": "name",',
      '  "users.email": "email",',
      '  "users.password_hash": "hash"',
      '}',
      '',
    ]);
    expect(result.stdout + result.stderr).not.toContain(SAMPLE_PLAYER_EMAIL);
    expect(result.stdout + result.stderr).not.toContain(SAMPLE_PLAYER_PASSWORD_HASH);
    await expect(readFile(join(project, 'fixtures/campaign-1-turn-23.json'))).rejects.toThrow(/ENOENT/);
  });

  it('captures anyway with --allow-sensitive, says so, and verify then flags the file', async () => {
    const result = await runCli(
      ['capture', '--config', 'unruled.json', '--campaign', '1', '--turn', '23', '--name', 'raw', '--allow-sensitive'],
      { cwd: project },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'raw: captured 4 sensitive-looking column(s) or value(s) without a scrub rule (users.display_name, users.email, users.handle, users.password_hash)',
    );
    const fixture = JSON.parse(await readFile(join(project, 'fixtures/raw.json'), 'utf8'));
    expect(fixture.source.scrub).toEqual({
      rules: {},
      allowSensitive: [
        "users.display_name: looks like a person's name (name)",
        'users.email: looks like an email address (name)',
        'users.handle: looks like a username (name)',
        'users.password_hash: looks like a secret (name)',
      ],
    });
    const verified = await runCli(['verify', 'fixtures/raw.json'], { cwd: project });
    expect(verified.code).toBe(1);
    expect(verified.stderr.trimEnd().split('\n')).toEqual([
      'fixtures/raw.json: $.tables.users.columns[1]: users.handle: looks like a username (name): captured with --allow-sensitive and no scrub rule',
      "fixtures/raw.json: $.tables.users.columns[2]: users.display_name: looks like a person's name (name): captured with --allow-sensitive and no scrub rule",
      'fixtures/raw.json: $.tables.users.columns[4]: users.email: looks like an email address (name): captured with --allow-sensitive and no scrub rule',
      'fixtures/raw.json: $.tables.users.columns[5]: users.password_hash: looks like a secret (name): captured with --allow-sensitive and no scrub rule',
    ]);
    expect(verified.stderr).not.toContain(SAMPLE_PLAYER_EMAIL);
  });

  it('scrubs with the sample config and the key from TURNKIT_SCRUB_KEY; show lists the scrubbed columns; verify passes', async () => {
    const env = { TURNKIT_SCRUB_KEY: DEMO_SCRUB_KEY };
    expect(
      await runCli(['capture', '--campaign', '1', '--turn', '23', '--name', 'clean'], { cwd: project, env }),
    ).toMatchObject({ code: 0 });
    const text = await readFile(join(project, 'fixtures/clean.json'), 'utf8');
    expect(text).not.toContain(SAMPLE_PLAYER_EMAIL);
    expect(text).not.toContain(SAMPLE_PLAYER_PASSWORD_HASH);
    expect(text).not.toContain(DEMO_SCRUB_KEY);
    const shown = await runCli(['show', 'fixtures/clean.json'], { cwd: project });
    expect(shown.stdout).toMatch(
      /scrubbed at capture with key hmac-sha256:[0-9a-f]{16} \(the demo's public key\):\n {2}column {15}transform\n {2}users\.display_name {3}name\n {2}users\.email {10}email\n {2}users\.handle {9}username\n {2}users\.password_hash {2}hash\n/,
    );
    // The columns where scrubbed values were also replaced (source.scrub.everywhere), as the fixture records them.
    const everywhere = (JSON.parse(text) as { source: { scrub: { everywhere: string[] } } }).source.scrub.everywhere;
    expect(everywhere).toBeInstanceOf(Array);
    expect(shown.stdout).toContain(
      `  scrubbed values also replaced in: ${everywhere.length > 0 ? everywhere.join(', ') : 'no other column'}\n`,
    );
    expect(await runCli(['verify', 'fixtures/clean.json'], { cwd: project })).toMatchObject({ code: 0 });
    const keyless = await runCli(['capture', '--campaign', '1', '--turn', '23', '--name', 'nokey'], {
      cwd: project,
      env: { TURNKIT_SCRUB_KEY: '' },
    });
    expect(keyless).toMatchObject({ code: 1 });
    expect(keyless.stderr).toBe(
      '<sample game config>: $.scrub: users.handle (username), users.display_name (name) and 2 more need a scrub key: set TURNKIT_SCRUB_KEY to a long ' +
        'random secret (for example `openssl rand -hex 32`) and keep it out of git\n',
    );
  });
});
