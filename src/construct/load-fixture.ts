import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { TurnkitError } from '../errors.js';
import { FIXTURE_FORMAT, type Fixture } from '../fixture/format.js';
import { parseFixtureValue } from '../fixture/read-fixture.js';
import { parseJsonText, parseWithSchema } from '../util/json-source.js';
import { describeReadError, shownPath } from '../util/shown-path.js';
import { applyChanges, describeConflict } from './apply-changes.js';
import { columnChangesOf, type ColumnChange } from './column-change.js';
import { CONSTRUCTED_FORMAT, constructedSchema, type ConstructedFixture } from './format.js';
import { checkSingleTurn } from './single-turn-rule.js';

/** A fixture file read and, when constructed, materialized: what every command that takes a fixture works on. */
export interface LoadedFixture {
  /** The fixture itself, or the materialized result of a constructed one (named after it). */
  fixture: Fixture;
  /** Absolute path of the file. */
  path: string;
  /** The path as shown in messages (relative to the working folder). */
  shown: string;
  /** sha256 of the file's bytes, hex. */
  sha256: string;
  /** Present for a constructed fixture: the document, its base (loaded the same way) and its changes. */
  constructed?: { document: ConstructedFixture; base: LoadedFixture; changes: ColumnChange[] };
}

/** A constructed fixture read but not yet applied, for commands that work on the recorded diff (rebase, edit). */
export interface ConstructedFile {
  document: ConstructedFixture;
  path: string;
  shown: string;
  /** Absolute path of the base as recorded. */
  basePath: string;
  changes: ColumnChange[];
}

/** Whether a document is a captured or a constructed fixture, read from its `format` field. */
export type FixtureKind = 'fixture' | 'constructed';

/**
 * Reads a fixture file of either kind. A constructed one is materialized: its base is loaded (recursively, so a
 * constructed base works), the base's bytes must hash to the recorded sha256, every change must obey the
 * single-turn rule and find its recorded old value, and the changes are applied to a copy.
 */
export async function loadFixture(path: string, chain: readonly string[] = []): Promise<LoadedFixture> {
  const { bytes, shown, value } = await readJsonFile(path);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (kindOf(value, shown) === 'fixture') return { fixture: parseFixtureValue(value, shown), path, shown, sha256 };
  if (chain.includes(path))
    throw new TurnkitError('BAD_INPUT', `${shown}: $.base.path: the chain of bases comes back to ${shown}`);
  const file = parseConstructed(value, path, shown);
  const base = await loadBase(file, [...chain, path]);
  if (base.sha256 !== file.document.base.sha256) {
    throw new TurnkitError(
      'FIXTURE',
      `${shown}: base ${base.shown} changed since this was constructed (recorded sha256 ${file.document.base.sha256}, now ${base.sha256}); run: turnkit rebase ${shown}`,
    );
  }
  return {
    fixture: materializeChanges(file, base.fixture),
    path,
    shown,
    sha256,
    constructed: { document: file.document, base, changes: file.changes },
  };
}

/** Applies a constructed file's changes to its (already loaded) base; every problem names the constructed file. */
export function materializeChanges(file: ConstructedFile, base: Fixture): Fixture {
  const rule = checkSingleTurn(base, file.changes, file.document.turn);
  if (rule.length > 0) throw problemsError(file.shown, rule);
  const applied = applyChanges(base, file.changes);
  if (applied.conflicts.length > 0) throw problemsError(file.shown, applied.conflicts.map(describeConflict));
  return { ...applied.fixture, name: file.document.name };
}

/** Reads a constructed fixture file without touching its base. */
export async function readConstructed(path: string): Promise<ConstructedFile> {
  const { shown, value } = await readJsonFile(path);
  if (kindOf(value, shown) !== 'constructed')
    throw new TurnkitError(
      'BAD_INPUT',
      `${shown}: $.format: expected "${CONSTRUCTED_FORMAT}" (this is a captured fixture)`,
    );
  return parseConstructed(value, path, shown);
}

/** Loads the base a constructed file names; a base that cannot be read is one line naming both files. */
export async function loadBase(file: ConstructedFile, chain: readonly string[] = [file.path]): Promise<LoadedFixture> {
  try {
    return await loadFixture(file.basePath, chain);
  } catch (error) {
    // The base cannot be read at all (gone, a folder, no permission): the constructed file is the one to name.
    const unreadable = `${shownPath(file.basePath)}: `;
    const reason =
      error instanceof TurnkitError && error.message.startsWith(unreadable)
        ? error.message.slice(unreadable.length)
        : '';
    if (
      error instanceof TurnkitError &&
      error.code === 'NOT_FOUND' &&
      /^(no such file|is a folder, not a file|cannot read \(\w+\))$/.test(reason)
    ) {
      throw new TurnkitError(
        'NOT_FOUND',
        `${file.shown}: $.base.path: ${file.document.base.path} (${shownPath(file.basePath)}): ${reason}`,
      );
    }
    throw error;
  }
}

function parseConstructed(value: unknown, path: string, shown: string): ConstructedFile {
  const document = parseWithSchema(constructedSchema, value, shown);
  const { changes, problems } = columnChangesOf(document.changeset);
  if (problems.length > 0) throw problemsError(shown, problems);
  // A path written on Windows ("..\\fixtures\\x.json") resolves the same everywhere.
  return { document, path, shown, basePath: resolve(dirname(path), document.base.path.replaceAll('\\', '/')), changes };
}

function kindOf(value: unknown, shown: string): FixtureKind {
  const format = (value as { format?: unknown } | null)?.format;
  if (format === FIXTURE_FORMAT) return 'fixture';
  if (format === CONSTRUCTED_FORMAT) return 'constructed';
  throw new TurnkitError(
    'BAD_INPUT',
    `${shown}: $.format: expected "${FIXTURE_FORMAT}" or "${CONSTRUCTED_FORMAT}", got ${JSON.stringify(format) ?? 'nothing'}`,
  );
}

async function readJsonFile(path: string): Promise<{ bytes: Buffer; shown: string; value: unknown }> {
  const shown = shownPath(path);
  const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw new TurnkitError('NOT_FOUND', `${shown}: ${describeReadError(error)}`);
  });
  return { bytes, shown, value: parseJsonText(bytes.toString('utf8'), shown) };
}

function problemsError(shown: string, problems: readonly string[]): TurnkitError {
  const lines = problems.map((problem) => `${shown}: ${problem}`);
  return new TurnkitError(
    'FIXTURE',
    lines.length === 1 ? lines[0]! : `${lines[0]} (and ${lines.length - 1} more)`,
    lines,
  );
}

/** A relative path as committed files record it: "/" separators, so that a file made on Windows reads the same. */
export function portablePath(path: string): string {
  return path.split(sep).join('/');
}
