import { DATA_FILE_LIMIT, readInputText } from '../util/read-input.js';
import { TurnkitError } from '../errors.js';
import { parseFixtureText } from '../fixture/read-fixture.js';
import { inputDir, inputPath, type ProjectContext } from '../project/project-context.js';
import { parseJsonText } from '../util/json/json-source.js';
import { shownPath, showingPathsFrom } from '../util/shown-path.js';
import { loadFixture } from '../fixture/load-fixture.js';
import { applyPatch } from './patch.js';
import { saveConstructed, type SavedConstructed } from './save-constructed.js';

/** What to construct: a base fixture, the turn it changes, and a patch or an edited copy. */
export interface ConstructInput {
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

/** Refuses anything but exactly one of a patch and an edited copy, before anything is read. */
export function checkConstructSource(input: Pick<ConstructInput, 'patch' | 'from'>): void {
  if ((input.patch === undefined) === (input.from === undefined))
    throw new TurnkitError('USAGE', 'give exactly one of --patch FILE or --from EDITED.json');
}

/**
 * Builds a constructed fixture from a base and a patch or an edited copy, and writes `constructed/NAME.json`.
 * @example
 * await construct(project, { fixture: 'fixtures/t23.json', turn: 22, patch: 'fix.json', name: 'fixed', why: 'typo' });
 */
export async function construct(project: ProjectContext, input: ConstructInput): Promise<SavedConstructed> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    checkConstructSource(input);
    const base = await loadFixture(inputPath(project, input.fixture));
    const source = inputPath(project, (input.patch ?? input.from)!);
    const text = await readText(source);
    const edited =
      input.patch !== undefined
        ? applyPatch(base.fixture, parseJsonText(text, shownPath(source)), shownPath(source))
        : parseFixtureText(text, shownPath(source));
    const dir = input.out !== undefined ? inputPath(project, input.out) : project.paths.constructed;
    return saveConstructed({
      base,
      edited,
      turn: input.turn,
      name: input.name,
      why: input.why,
      dir,
      force: input.force,
      source: shownPath(source),
    });
  });
}

async function readText(path: string): Promise<string> {
  // A patch is written by hand, an edited copy is a whole fixture: the larger bound serves both.
  return readInputText(path, shownPath(path), DATA_FILE_LIMIT);
}
