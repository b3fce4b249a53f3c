import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../dist/src/cli/bin.js', import.meta.url));

// A package's warning (node-postgres's ten-line SSL notice) is one line before turnkit's own, not a block over it.
describe('warnings from Node and packages', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-warnings-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('Ctrl-C of a command with no handler of its own says so in one line and exits 130', async () => {
    // A database that takes the connection and never answers: gc waits on it until interrupted.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const child = spawn(process.execPath, [BIN, 'gc'], {
        cwd: dir,
        env: { PATH: process.env.PATH, DATABASE_URL: `postgres://x@127.0.0.1:${port}/db` },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      // Interrupted once it is waiting for the database (it has connected).
      await new Promise<void>((resolve) => silent.once('connection', () => resolve()));
      child.kill('SIGINT');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(130);
      expect(stderr.trimEnd()).toBe('turnkit: interrupted by SIGINT');
    } finally {
      silent.close();
    }
  });

  it("node-postgres's sslmode notice is one line, then turnkit's line", () => {
    const run = spawnSync(process.execPath, [BIN, 'gc'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, DATABASE_URL: 'postgres://x@127.0.0.1:1/db?sslmode=require' },
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      "warning: SECURITY WARNING: The SSL modes 'prefer', 'require', and 'verify-ca' are treated as aliases for 'verify-full'.",
      expect.stringMatching(
        /^cannot connect to postgres:\/\/x@127\.0\.0\.1:1\/db\?sslmode=require: connect ECONNREFUSED/,
      ),
    ]);
  });
});
