import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { showingPathsFrom, shownPath } from '../../src/util/shown-path.js';

// showingPathsFrom opens no AsyncLocalStorage scope for a folder that changes nothing (on Node 20 the first one
// slows every later promise of the process): the paths shown must be the same as with a scope.
describe('showingPathsFrom', () => {
  const here = resolve('');
  const other = resolve('/tmp/elsewhere');

  it('shows paths from the folder Node resolves against, scoped or not', async () => {
    const file = join(here, 'runs', 'a', 'manifest.json');
    expect(shownPath(file)).toBe(join('runs', 'a', 'manifest.json'));
    expect(await showingPathsFrom(here, async () => shownPath(file))).toBe(join('runs', 'a', 'manifest.json'));
    expect(await showingPathsFrom(`${here}/`, async () => shownPath(file))).toBe(join('runs', 'a', 'manifest.json'));
  });

  it('shows paths from another folder, through awaits, and back from the outer one after it', async () => {
    const file = join(other, 'q.yaml');
    const inside = await showingPathsFrom(other, async () => {
      await new Promise((done) => setTimeout(done, 1));
      return shownPath(file);
    });
    expect(inside).toBe('q.yaml');
    expect(shownPath(file)).toBe(relative(here, file));
  });

  it('nests: the inner folder wins, also when it is the one Node resolves against', async () => {
    const file = join(here, 'f.json');
    const shown = await showingPathsFrom(other, () =>
      showingPathsFrom(here, async () => {
        await Promise.resolve();
        return shownPath(file);
      }),
    );
    expect(shown).toBe('f.json');
    // The same folder inside itself: still that folder's view.
    expect(await showingPathsFrom(other, () => showingPathsFrom(other, async () => shownPath(join(other, 'x'))))).toBe(
      'x',
    );
  });
});
