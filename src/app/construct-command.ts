import { resolve } from 'node:path';
import type { CommonOptions } from '../config/common-options.js';
import { loadConfig, resolveFromConfig } from '../config/load.js';
import { TurnkitError } from '../errors.js';
import { parseFixtureText } from '../fixture/read-fixture.js';
import { parseJsonText } from '../util/json-source.js';
import { readFile } from 'node:fs/promises';
import { loadFixture } from '../construct/load-fixture.js';
import { describeReadError, shownPath } from '../util/shown-path.js';
import { applyPatch } from '../construct/patch.js';
import { saveConstructed, type SavedConstructed } from '../construct/save-constructed.js';

/** Options of `turnkit construct`. */
export interface ConstructOptions extends CommonOptions {
  /** The base fixture (captured or constructed). */
  fixture: string;
  turn: number;
  /** A JSON file of new values for the turn's rows, by table and primary key. */
  patch?: string | undefined;
  /** A whole edited copy of the fixture; its difference from the base is recorded. */
  from?: string | undefined;
  name: string;
  why: string;
  /** Output folder (default: the config's constructed folder). */
  out?: string | undefined;
  force?: boolean | undefined;
}

/** Builds a constructed fixture from a base and a patch or an edited copy, and writes `constructed/NAME.json`. */
export async function construct(options: ConstructOptions): Promise<SavedConstructed> {
  if ((options.patch === undefined) === (options.from === undefined))
    throw new TurnkitError('USAGE', 'give exactly one of --patch FILE or --from EDITED.json');
  const cwd = options.cwd ?? process.cwd();
  const config = await loadConfig({ configPath: options.configPath, cwd });
  const base = await loadFixture(resolve(cwd, options.fixture));
  const source = resolve(cwd, (options.patch ?? options.from)!);
  const text = await readText(source);
  const edited =
    options.patch !== undefined
      ? applyPatch(base.fixture, parseJsonText(text, shownPath(source)), shownPath(source))
      : parseFixtureText(text, shownPath(source));
  const dir =
    options.out !== undefined ? resolve(cwd, options.out) : resolveFromConfig(config, config.paths.constructed);
  return saveConstructed({
    base,
    edited,
    turn: options.turn,
    name: options.name,
    why: options.why,
    dir,
    force: options.force,
    source: shownPath(source),
  });
}

async function readText(path: string): Promise<string> {
  return readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new TurnkitError('NOT_FOUND', `${shownPath(path)}: ${describeReadError(error)}`);
  });
}
