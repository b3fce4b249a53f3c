import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli-in-process.js';

// Player text is untrusted: a right-to-left override or a C1 CSI must not reach the terminal raw from `show`.
describe('turnkit show escapes control characters as the marker does', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-show-controls-'));
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('writes U+202E and U+009B in the input as \\u202e and \\u009b', async () => {
    const fixture = JSON.parse(await readFile(join(process.cwd(), 'fixtures/meridian-turn-23.json'), 'utf8'));
    fixture.input.values.player_input = 'go to deck \u202e3 kced\u202c and \u009b2J clear';
    await writeFile(join(folder, 'odd.json'), `${JSON.stringify(fixture, null, 2)}\n`);
    const shown = await runInProcess(['show', 'odd.json'], { cwd: folder });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('player_input: "go to deck \\u202e3 kced\\u202c and \\u009b2J clear"');
    expect(shown.stdout).not.toMatch(/[\u009b\u202a-\u202e]/);
  });
});
