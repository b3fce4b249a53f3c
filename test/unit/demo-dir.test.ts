import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DATA_DIR, demo } from '../../src/demo/demo-command.js';
import { loadConfig } from '../../src/config/load.js';
import { embeddedDataDir } from '../../src/db/connect.js';
import { TurnkitError } from '../../src/errors.js';

// The refusals of `turnkit demo --dir` that come before anything starts (the whole demo is in test/e2e/demo.test.ts).
describe('demo: a --dir that is no place to start', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-demo-dir-'));
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('a regular file: EXISTS, "not a folder", the file untouched and nothing made beside it', async () => {
    const file = join(folder, 'notes.txt');
    await writeFile(file, 'my notes\n');
    const steps: string[] = [];
    const error = await demo({ dir: 'notes.txt', cwd: folder, onStep: (line) => steps.push(line) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TurnkitError);
    expect((error as TurnkitError).code).toBe('EXISTS');
    expect((error as TurnkitError).message).toBe(
      `${relative(process.cwd(), file)}: not a folder; the demo starts in a folder of its own`,
    );
    // Refused before the first step: no database, no folder, no step announced.
    expect(steps).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe('my notes\n');
    expect(await readdir(folder)).toEqual(['notes.txt']);
  });

  it('an absolute path to a file is refused the same way', async () => {
    const file = join(folder, 'abs.json');
    await writeFile(file, '{}');
    const error = await demo({ dir: file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnkitError);
    expect((error as TurnkitError).code).toBe('EXISTS');
    expect((error as TurnkitError).message).toMatch(/abs\.json: not a folder; the demo starts in a folder of its own$/);
    expect(await readFile(file, 'utf8')).toBe('{}');
  });

  it("fills, ahead of loading the config, the very data directory that the folder's config names", async () => {
    const dir = join(folder, 'new');
    await mkdir(dir);
    expect(embeddedDataDir(await loadConfig({ cwd: dir }))).toBe(join(dir, DEMO_DATA_DIR));
  });

  it('a non-empty folder is still "not empty", not "not a folder"', async () => {
    const dir = join(folder, 'full');
    await mkdir(dir);
    await writeFile(join(dir, 'x'), 'x');
    const error = await demo({ dir: 'full', cwd: folder }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnkitError);
    expect((error as TurnkitError).message).toBe(
      `${relative(process.cwd(), dir)}: not empty; the demo starts in a folder of its own`,
    );
  });
});
