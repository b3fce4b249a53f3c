import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RepFilesState } from '../../src/view/server/rep-files-state.js';

// The viewer's caches are keyed by this state: each change to a rep file must change it, and nothing else may.
describe.each([
  ['watched', true],
  ['stat-ed file by file', false],
])('the rep files state, %s', (_name, watch) => {
  let folder = '';
  let state: RepFilesState | undefined;
  afterEach(async () => {
    state?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  async function run(): Promise<string> {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-rep-files-'));
    const reps = join(folder, 'reps');
    for (const fixture of ['alpha', 'beta']) {
      await mkdir(join(reps, fixture), { recursive: true });
      for (const rep of ['01', '02']) await writeFile(join(reps, fixture, `rep-${rep}.json`), `{"rep":"${rep}"}`);
    }
    state = new RepFilesState(reps, { watch });
    return reps;
  }

  it('stays the same while nothing changes, and changes when a rep is rewritten in place (same size, same file)', async () => {
    const reps = await run();
    const first = (await state!.lines()).join('\n');
    expect((await state!.lines()).join('\n')).toBe(first);
    const file = join(reps, 'beta', 'rep-02.json');
    const inode = (await stat(file)).ino;
    await writeFile(file, (await readFile(file, 'utf8')).replace('02', '03'));
    expect((await stat(file)).ino).toBe(inode);
    const second = (await state!.lines()).join('\n');
    expect(second).not.toBe(first);
    expect((await state!.lines()).join('\n')).toBe(second);
  });

  it('changes when a rep is added or removed, and names each fixture folder', async () => {
    const reps = await run();
    const first = await state!.lines();
    expect(first.filter((line) => !line.startsWith('changes:')).map((line) => line.split(':')[0])).toEqual([
      'alpha',
      'beta',
    ]);
    await writeFile(join(reps, 'alpha', 'rep-03.json'), '{}');
    const added = await state!.lines();
    expect(added).not.toEqual(first);
    await rm(join(reps, 'alpha', 'rep-03.json'));
    expect(await state!.lines()).not.toEqual(added);
  });

  it('sees a rep rewritten in place in a fixture folder that was removed and made again (the inode may be reused)', async () => {
    const reps = await run();
    await state!.lines();
    await rm(join(reps, 'beta'), { recursive: true });
    await mkdir(join(reps, 'beta'));
    const file = join(reps, 'beta', 'rep-01.json');
    await writeFile(file, '{"rep":"01"}');
    const again = (await state!.lines()).join('\n');
    await writeFile(file, '{"rep":"09"}');
    expect((await state!.lines()).join('\n')).not.toBe(again);
    const later = (await state!.lines()).join('\n');
    await writeFile(file, '{"rep":"08"}');
    expect((await state!.lines()).join('\n')).not.toBe(later);
  });

  it('is one line for a run with no reps folder yet', async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-rep-files-'));
    state = new RepFilesState(join(folder, 'reps'), { watch });
    expect(await state.lines()).toEqual(['changes:0']);
  });
});
