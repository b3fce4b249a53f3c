import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

// turnkit is not on a registry yet; when it can be, `npm publish` must be the one command: the package lists what a
// game project needs (the built binary, its types, turnkit/testing, the sample migrations, the README) and nothing
// of the repository's own (sources, tests, fixtures, runs, the embedded database).
describe('the package npm would publish', () => {
  it('holds the binary, the types, turnkit/testing and the README, and none of the repository itself', async () => {
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: REPO,
      maxBuffer: 64 * 1024 * 1024,
    });
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path);
    for (const needed of [
      'README.md',
      'package.json',
      'dist/src/cli/bin.js',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/testing/index.js',
      'dist/src/testing/index.d.ts',
      // The pages' script, bundled at build time (scripts/build-client.mjs): pages cannot be written without it.
      'dist/client/page-script.js',
      'migrations/20261129000000_sample_game.ts',
    ])
      expect(files, needed).toContain(needed);
    const foreign = files.filter((path) =>
      /^(src|test|bench|scripts|fixtures|constructed|runs|docs|\.turnkit|\.ci|node_modules)\/|^\.env|\.test\.js$/.test(
        path,
      ),
    );
    expect(foreign).toEqual([]);
  });

  it('declares what an install needs: the binary, both exports with types, Node 20 and a build on install from git', async () => {
    const manifest = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8'));
    expect(manifest.bin).toEqual({ turnkit: 'dist/src/cli/bin.js' });
    expect(manifest.exports['.']).toEqual({ types: './dist/src/index.d.ts', default: './dist/src/index.js' });
    expect(manifest.exports['./testing']).toEqual({
      types: './dist/src/testing/index.d.ts',
      default: './dist/src/testing/index.js',
    });
    expect(manifest.engines).toEqual({ node: '>=20' });
    expect(manifest.private).toBeUndefined();
    expect(manifest.scripts.prepare).toBe('npm run build');
    // The bin starts with a shebang, so npx runs it on every platform npm supports.
    expect((await readFile(join(REPO, 'dist/src/cli/bin.js'), 'utf8')).startsWith('#!/usr/bin/env node')).toBe(true);
  });
});
