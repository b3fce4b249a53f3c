import { showingPathsFrom } from '../util/shown-path.js';
import { inputDir, type FilesContext } from '../project/project-context.js';
import { resolve } from 'node:path';
import type { Fixture } from '../fixture/format.js';
import { loadFixture } from '../fixture/load-fixture.js';
import { checkAdded } from '../fixture/scrub/verify-scrubbed.js';
import { TurnkitError } from '../errors.js';

/** Options of `turnkit materialize`. */
export interface MaterializeOptions {
  constructed: string;
}

/**
 * Materializes a constructed fixture (checking the base's hash and every old value) and returns the fixture.
 * @example
 * const fixture = await materialize(project, { constructed: 'constructed/meridian-turn-23-deck-fixed.json' });
 */
export async function materialize(project: FilesContext, options: MaterializeOptions): Promise<Fixture> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    const loaded = await loadFixture(resolve(inputDir(project), options.constructed));
    if (loaded.constructed) {
      // What the changes add that looks personal or secret is refused, as verify flags it (rules as the base recorded).
      const added = checkAdded(loaded.fixture, loaded.constructed.base.fixture, {}, loaded.shown);
      if (added.length > 0)
        throw new TurnkitError(
          'BAD_INPUT',
          added.length === 1 ? added[0]! : `${added[0]} (and ${added.length - 1} more)`,
          added,
        );
    }
    return loaded.fixture;
  });
}
