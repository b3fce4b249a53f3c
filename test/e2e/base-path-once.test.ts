import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../dist/src/cli/bin.js', import.meta.url));

// A constructed fixture's base named where it is written; the path from here only when it reads otherwise.
describe("a constructed fixture's missing base", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-base-once-'));
    const document = {
      format: 'turnkit.constructed/1',
      name: 'fixed',
      why: 'a test',
      base: { path: 'gone.json', sha256: '0'.repeat(64) },
      turn: 1,
      changeset: [],
    };
    await writeFile(join(dir, 'fixed.json'), `${JSON.stringify(document, null, 2)}\n`);
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('names the base path once when it reads the same from the working folder', () => {
    const run = spawnSync(process.execPath, [BIN, 'materialize', 'fixed.json'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trimEnd()).toBe('fixed.json: $.base.path: gone.json: no such file');
  });
});
