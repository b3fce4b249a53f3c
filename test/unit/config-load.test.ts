import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { chooseDatabaseUrl, embeddedDataDir } from '../../src/db/connect.js';

describe('loadConfig', () => {
  let dir: string;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const project = async (): Promise<string> => (dir = await mkdtemp(join(tmpdir(), 'turnkit-config-')));

  it('falls back to the sample game when the project has no config', async () => {
    const config = await loadConfig({ cwd: await project() });
    expect(config.file).toBeUndefined();
    expect(config.game).toEqual({
      root: { table: 'campaigns', key: 'id' },
      turns: { table: 'turns', order: 'turn_number', input: ['player_input'] },
      shared: ['users'],
      exclude: [],
    });
    expect(embeddedDataDir(config)).toBe(join(dir, '.turnkit', 'postgres'));
  });

  it('loads a TypeScript config with types stripped, resolving paths against its folder', async () => {
    const cwd = await project();
    await writeFile(
      join(cwd, 'turnkit.config.ts'),
      `
      const table: string = 'sessions';
      export default { database: { embedded: { dataDir: 'db/data' } }, game: { root: { table, key: 'uuid' }, turns: { table: 'moves', order: 'at', input: ['said', 'dice'] } } };
    `,
    );
    const config = await loadConfig({ cwd });
    expect(config.game.root).toEqual({ table: 'sessions', key: 'uuid' });
    expect(config.game.turns.input).toEqual(['said', 'dice']);
    expect(config.paths.fixtures).toBe('fixtures');
    expect(embeddedDataDir(config)).toBe(join(cwd, 'db', 'data'));
  });

  it('rejects an unknown key with its line, column and JSON path, and the known key it most resembles', async () => {
    const cwd = await project();
    await writeFile(
      join(cwd, 'turnkit.config.json'),
      JSON.stringify(
        { game: { root: { table: 'c', key: 'id' }, turns: { table: 't', order: 'n', input: ['i'] }, shard: [] } },
        null,
        2,
      ),
    );
    await expect(loadConfig({ cwd })).rejects.toThrow(
      /^turnkit\.config\.json:14:5: \$\.game\.shard: unknown key "shard" \(did you mean "shared"\?\)$/,
    );
  });

  it('places a wrong value at its line and column, and a missing key at its parent object', async () => {
    const cwd = await project();
    await writeFile(
      join(cwd, 'turnkit.config.json'),
      '{\n  "game": {\n    "root": { "table": "c" },\n    "turns": { "table": "t", "order": 3, "input": ["i"] }\n  }\n}\n',
    );
    const error = await loadConfig({ cwd }).catch((caught: Error & { problems?: string[] }) => caught);
    expect((error as { problems?: string[] }).problems).toEqual([
      'turnkit.config.json:3:13: $.game.root.key: is required',
      'turnkit.config.json:4:39: $.game.turns.order: expected text, got 3',
    ]);
  });

  it('in a TypeScript config too: an unknown key with where it is written and what it resembles', async () => {
    const cwd = await project();
    await writeFile(
      join(cwd, 'turnkit.config.ts'),
      [
        "import { defineConfig } from 'turnkit';",
        'export default {',
        '  game: {',
        "    root: { table: 'campaigns', key: 'id' },",
        "    turns: { tabel: 'turns', order: 'turn_number', input: ['player_input'] },",
        '  },',
        '};',
        '',
      ]
        .join('\n')
        .replace("import { defineConfig } from 'turnkit';", '// a config'),
    );
    const error = await loadConfig({ cwd }).catch((caught: Error & { problems?: string[] }) => caught);
    expect((error as Error).message).toBe(
      'turnkit.config.ts:5:14: $.game.turns.tabel: unknown key "tabel" (did you mean "table"?)',
    );
  });

  it('says when --config names a missing file or a module without a default export', async () => {
    const cwd = await project();
    await expect(loadConfig({ cwd, configPath: 'nope.ts' })).rejects.toThrow('nope.ts: config file not found');
    await writeFile(join(cwd, 'named.mjs'), 'export const config = {};');
    await expect(loadConfig({ cwd, configPath: 'named.mjs' })).rejects.toThrow('named.mjs: no default export');
  });

  it('prefers --database-url, then DATABASE_URL, then the config', async () => {
    const cwd = await project();
    await writeFile(
      join(cwd, 'turnkit.config.json'),
      JSON.stringify({
        database: { url: 'postgres://c@h/db' },
        game: { root: { table: 'c', key: 'id' }, turns: { table: 't', order: 'n', input: ['i'] } },
      }),
    );
    const config = await loadConfig({ cwd });
    // db/ never reads the environment itself: the CLI passes the process's as a record.
    const env = { DATABASE_URL: 'postgres://env@h/db' };
    expect(chooseDatabaseUrl(config, { databaseUrl: 'postgres://flag@h/db', env })).toBe('postgres://flag@h/db');
    expect(chooseDatabaseUrl(config, { env })).toBe('postgres://env@h/db');
    expect(chooseDatabaseUrl(config, { env, fromEnvironment: false })).toBe('postgres://c@h/db');
    expect(chooseDatabaseUrl(config, { env: { DATABASE_URL: '' } })).toBe('postgres://c@h/db');
    expect(chooseDatabaseUrl(config, {})).toBe('postgres://c@h/db');
  });
});
