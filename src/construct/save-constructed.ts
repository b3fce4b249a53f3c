import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { TurnkitError } from '../errors.js';
import { FIXTURE_NAME, FIXTURE_NAME_RULE, serializeDocument, type Fixture } from '../fixture/format.js';
import { writeFileAtomic } from '../util/process/atomic-write.js';
import { changePath, changesetOf, type ColumnChange } from '../fixture/column-change.js';
import { diffFixtures } from './diff-fixtures.js';
import {
  CONSTRUCTED_FORMAT,
  CONSTRUCTED_SCHEMA_FILE,
  constructedJsonSchema,
  type ConstructedFixture,
} from '../fixture/constructed-format.js';
import { portablePath, type LoadedFixture } from '../fixture/load-fixture.js';
import { shownPath } from '../util/shown-path.js';
import { checkSingleTurn, turnProblem } from '../fixture/turns/single-turn-rule.js';

/** What a constructed fixture is made of before it is written. */
export interface ConstructRequest {
  base: LoadedFixture;
  edited: Fixture;
  turn: number;
  name: string;
  why: string;
  /** Folder the constructed fixture is written to. */
  dir: string;
  /** Overwrite an existing file of that name. */
  force?: boolean | undefined;
  /** Where the edit came from (a patch file, an edited copy), named in refusals; the base when absent. */
  source?: string | undefined;
}

/** A written constructed fixture. */
export interface SavedConstructed {
  file: string;
  document: ConstructedFixture;
  changes: ColumnChange[];
  /** Each change's place as it reads in review: `turns[id=19].narration`. */
  paths: string[];
}

/**
 * Records the difference between a base and an edited copy as a constructed fixture and writes it: the one code path
 * of `construct`, `edit` and `edit --editor`. Refused, with every offending path listed and nothing written, when
 * the change leaves turn N's rows, touches a key, is empty, or the turn is not upstream of the input turn.
 */
export async function saveConstructed(request: ConstructRequest): Promise<SavedConstructed> {
  const document = buildConstructed(request);
  const file = join(request.dir, `${request.name}.json`);
  // Overwriting any file the new one stands on would make the chain of bases a loop, --force or not.
  if (chainOf(request.base).includes(file))
    throw new TurnkitError('BAD_INPUT', `${shownPath(file)}: is a base the new fixture stands on; choose another name`);
  if (!request.force && existsSync(file))
    throw new TurnkitError('EXISTS', `${shownPath(file)}: already exists (use --force to overwrite)`);
  try {
    await writeConstructedSchema(request.dir);
    await writeFileAtomic(file, serializeDocument(document.document));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    throw new TurnkitError(
      'BAD_INPUT',
      `${shownPath(request.dir)}: cannot write the constructed fixture there (${code})`,
    );
  }
  return { file, ...document };
}

/** Builds the constructed document without writing it (for previews and tests). */
export function buildConstructed(request: Omit<ConstructRequest, 'force'>): Omit<SavedConstructed, 'file'> {
  if (!FIXTURE_NAME.test(request.name) || /^\.+$/.test(request.name))
    throw new TurnkitError('BAD_INPUT', `name ${JSON.stringify(request.name)}: ${FIXTURE_NAME_RULE}`);
  if (request.why.trim() === '') throw new TurnkitError('BAD_INPUT', 'why is empty: say what this fixture tests');
  // A turn that is not upstream is the base's matter (and the command line's), not the edit's.
  const badTurn = turnProblem(request.base.fixture, request.turn);
  if (badTurn) throw new TurnkitError('BAD_INPUT', `${request.base.shown}: ${badTurn}`);
  const { changes, problems } = diffFixtures(request.base.fixture, request.edited);
  const rule = problems.length > 0 ? [] : checkSingleTurn(request.base.fixture, changes, request.turn);
  const refused = [...problems, ...rule];
  if (refused.length > 0) {
    const summary = refused.length === 1 ? refused[0]! : `${refused.length} changes refused: ${refused.join('; ')}`;
    const source = request.source ?? request.base.shown;
    throw new TurnkitError(
      'BAD_INPUT',
      `${source}: ${summary}`,
      refused.map((line) => `${source}: ${line}`),
    );
  }
  const document: ConstructedFixture = {
    $schema: `./${CONSTRUCTED_SCHEMA_FILE}`,
    format: CONSTRUCTED_FORMAT,
    name: request.name,
    why: request.why.trim(),
    base: { path: portablePath(relative(request.dir, request.base.path)), sha256: request.base.sha256 },
    turn: request.turn,
    changeset: changesetOf(changes, request.base.fixture),
  };
  const paths = changes.map((change) =>
    changePath(change, request.base.fixture.tables[change.table]?.primaryKey ?? []),
  );
  return { document, changes, paths };
}

/** Writes (or refreshes) the constructed-fixture JSON Schema in a folder; unchanged bytes are not rewritten. */
export async function writeConstructedSchema(dir: string): Promise<void> {
  const path = join(dir, CONSTRUCTED_SCHEMA_FILE);
  const text = serializeDocument(constructedJsonSchema());
  const current = existsSync(path) ? await readFile(path, 'utf8') : undefined;
  if (current !== text) await writeFileAtomic(path, text);
}

/** Every file a fixture stands on: itself and, for a constructed one, its bases down to the captured fixture. */
function chainOf(fixture: LoadedFixture): string[] {
  return [fixture.path, ...(fixture.constructed ? chainOf(fixture.constructed.base) : [])];
}
