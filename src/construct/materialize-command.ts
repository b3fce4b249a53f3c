import { resolve } from 'node:path';
import type { Fixture } from '../fixture/format.js';
import { loadFixture } from '../fixture/load-fixture.js';

/** Options of `turnkit materialize`. */
export interface MaterializeOptions {
  constructed: string;
  cwd?: string | undefined;
}

/** Materializes a constructed fixture (checking the base's hash and every old value) and returns the fixture. */
export async function materialize(options: MaterializeOptions): Promise<Fixture> {
  const loaded = await loadFixture(resolve(options.cwd ?? process.cwd(), options.constructed));
  return loaded.fixture;
}
