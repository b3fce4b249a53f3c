import { describe, expect, it } from 'vitest';
import { BACKENDS, createTestDb } from '../helpers/test-db.js';
import { configSchema } from '../../src/config/schema.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { openDb } from '../../src/db/connect.js';

describe.each(BACKENDS)('connections on %s', (backend) => {
  it('reaches the server and releases every client on close, even when kysely was never used', async () => {
    const t = await createTestDb(backend);
    try {
      const { rows } = await t.db.pool.query<{ n: number }>('SELECT 41 + 1 AS n');
      expect(rows).toEqual([{ n: 42 }]);
      expect(t.db.backend).toBe(backend);
      await t.db.close();
      // An idle client left connected would keep a CLI process alive for pg's 10 s idle timeout.
      expect(t.db.pool.ended).toBe(true);
      expect(t.db.pool.totalCount).toBe(0);
    } finally {
      await t.cleanup();
    }
  });
});

describe('connection errors', () => {
  it('name the server without its password and say why', async () => {
    const config = { ...configSchema.parse(sampleGameConfig), baseDir: process.cwd(), file: undefined };
    const attempt = openDb(config, { databaseUrl: 'postgres://bob:hunter2@127.0.0.1:1/game?sslmode=disable' });
    await expect(attempt).rejects.toThrow(
      'cannot connect to postgres://bob@127.0.0.1:1/game?sslmode=disable: connect ECONNREFUSED 127.0.0.1:1',
    );
    await attempt.catch((error: Error) => expect(error.message).not.toContain('hunter2'));
  });
});
