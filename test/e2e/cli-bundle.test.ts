import { spawnSync } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

// `npm run build` bundles the command line's own modules into dist/src/cli/bin.js and its chunks
// (scripts/build-cli.mjs); what finds turnkit's files from its own module's place must find them from there too. The
// other e2e tests run this binary (demo, view's page script, run's spawn helper, capture); this one checks the shape.
describe('the command line as built: one bundle and its chunks', () => {
  it('imports its own code from its chunks and every package from node_modules', async () => {
    const text = await readFile(BIN, 'utf8');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gm)].map(
      (match) => match[1] ?? match[2],
    );
    expect(specifiers.length).toBeGreaterThan(0);
    // No import of another module of tsc's output (../something.js): those are the library's copies.
    expect(specifiers.filter((specifier) => specifier!.startsWith('.') && !specifier!.startsWith('./chunks/'))).toEqual(
      [],
    );
    const chunks = await readdir(join(dirname(BIN), 'chunks'));
    expect(chunks.some((name) => /^report-[A-Z0-9]+\.js$/.test(name))).toBe(true);
  });

  it('finds its package.json from the bundle: --version is the package version', async () => {
    const { version } = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { version: string };
    const result = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });
});
