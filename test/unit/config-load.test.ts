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
    expect(embeddedDataDir(config)).toBe(join(dir, '.turnkit', 'pgdata'));
  });

  it('loads a TypeScript config with types stripped, resolving paths against its folder', async () => {
    const cwd = await project();
    await writeFile(join(cwd, 'turnkit.config.ts'), `
      const table: string = 'sessions';
      export default { database: { embedded: { dataDir: 'db/data' } }, game: { root: { table, key: 'uuid' }, turns: { table: 'moves', order: 'at', input: ['said', 'dice'] } } };
    `);
    const config = await loadConfig({ cwd });
    expect(config.game.root).toEqual({ table: 'sessions', key: 'uuid' });
    expect(config.game.turns.input).toEqual(['said', 'dice']);
    expect(config.paths.fixtures).toBe('fixtures');
    expect(embeddedDataDir(config)).toBe(join(cwd, 'db', 'data'));
  });

  it('rejects unknown keys with their JSON path', async () => {
    const cwd = await project();
    await writeFile(join(cwd, 'turnkit.config.json'), JSON.stringify({ game: { root: { table: 'c', key: 'id' }, turns: { table: 't', order: 'n', input: ['i'] }, shard: [] } }));
    await expect(loadConfig({ cwd })).rejects.toThrow('turnkit.config.json: $.game: Unrecognized key: "shard"');
  });

  it('says when --config names a missing file or a module without a default export', async () => {
    const cwd = await project();
    await expect(loadConfig({ cwd, configPath: 'nope.ts' })).rejects.toThrow('nope.ts: config file not found');
    await writeFile(join(cwd, 'named.mjs'), 'export const config = {};');
    await expect(loadConfig({ cwd, configPath: 'named.mjs' })).rejects.toThrow('named.mjs: no default export');
  });

  it('prefers --database-url, then DATABASE_URL, then the config', async () => {
    const cwd = await project();
    await writeFile(join(cwd, 'turnkit.config.json'), JSON.stringify({ database: { url: 'postgres://c@h/db' }, game: { root: { table: 'c', key: 'id' }, turns: { table: 't', order: 'n', input: ['i'] } } }));
    const config = await loadConfig({ cwd });
    const saved = process.env.DATABASE_URL;
    try {
      process.env.DATABASE_URL = 'postgres://env@h/db';
      expect(chooseDatabaseUrl(config, { databaseUrl: 'postgres://flag@h/db' })).toBe('postgres://flag@h/db');
      expect(chooseDatabaseUrl(config, {})).toBe('postgres://env@h/db');
      process.env.DATABASE_URL = '';
      expect(chooseDatabaseUrl(config, {})).toBe('postgres://c@h/db');
    } finally {
      process.env.DATABASE_URL = saved;
    }
  });
});
