import { showingPathsFrom } from '../util/shown-path.js';
import { inputDir, type FilesContext } from '../project/project-context.js';
import { dirname, relative, resolve } from 'node:path';
import { TurnkitError } from '../errors.js';
import { serializeDocument } from '../fixture/format.js';
import { writeFileAtomic } from '../util/process/atomic-write.js';
import { applyChanges, describeConflict, type ChangeConflict } from '../fixture/apply-changes.js';
import { changesetOf } from '../fixture/column-change.js';
import type { ConstructedFixture } from '../fixture/constructed-format.js';
import { loadBase, loadFixture, portablePath, readConstructed } from '../fixture/load-fixture.js';
import { checkSingleTurn } from '../fixture/turns/single-turn-rule.js';
import { resolveConflicts, type KeepChoice, type KeepSide } from './resolve-conflicts.js';

/** Options of `turnkit rebase`. */
export interface RebaseOptions {
  constructed: string;
  /** A new base (default: the recorded base path, recaptured in place). */
  onto?: string | undefined;
  /** How to resolve conflicting paths: keep the new base's value or the change, per path or for all. */
  keep?: readonly KeepChoice[] | undefined;
}

/** What a rebase did: the hashes before and after, or why it refused. */
export interface RebaseResult {
  file: string;
  base: string;
  fromSha256: string;
  toSha256: string;
  /** False when the base had not changed and nothing was written. */
  rewritten: boolean;
  changes: number;
  /** The conflicting paths resolved by `keep`, and which side each kept. */
  kept?: { path: string; keep: KeepSide }[];
}

/**
 * Re-applies a constructed fixture's diff to its recaptured base (or to `--onto`): when every recorded old value is
 * still what the new base holds, the file is rewritten with the new hash; otherwise nothing is written and each
 * conflicting path is listed with its base, old and new values.
 * @example
 * const { rewritten } = await rebase(project, { constructed: 'constructed/fixed.json' });
 */
export async function rebase(project: FilesContext, options: RebaseOptions): Promise<RebaseResult> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    const cwd = inputDir(project);
    const file = await readConstructed(resolve(cwd, options.constructed));
    const basePath = options.onto !== undefined ? resolve(cwd, options.onto) : file.basePath;
    if (basePath === file.path)
      throw new TurnkitError('USAGE', `--onto ${options.onto}: is the constructed fixture itself; name its new base`);
    const base = options.onto !== undefined ? await loadFixture(basePath, [file.path]) : await loadBase(file);
    const result: RebaseResult = {
      file: file.shown,
      base: base.shown,
      fromSha256: file.document.base.sha256,
      toSha256: base.sha256,
      rewritten: false,
      changes: file.changes.length,
    };
    const rule = checkSingleTurn(base.fixture, file.changes, file.document.turn);
    const found = applyChanges(base.fixture, file.changes).conflicts;
    const resolved = resolveConflicts(base.fixture, file.changes, found, options.keep ?? []);
    const conflicts = resolved.unresolved;
    // Checked even when the base is unchanged: "nothing to do" must mean the file materializes.
    if (rule.length > 0 || conflicts.length > 0) throw conflictError(file.shown, base.shown, conflicts, rule);
    if (resolved.changes.length === 0)
      throw new TurnkitError(
        'BAD_INPUT',
        `${file.shown}: keeping the base everywhere leaves no change; a constructed fixture needs at least one (delete the file instead)`,
      );
    const kept = resolved.kept.length > 0 ? { kept: resolved.kept } : {};
    if (resolved.kept.length === 0 && basePath === file.basePath && base.sha256 === file.document.base.sha256)
      return result;
    const document: ConstructedFixture = {
      ...file.document,
      base: { path: portablePath(relative(dirname(file.path), basePath)), sha256: base.sha256 },
      changeset: changesetOf(resolved.changes, base.fixture),
    };
    await writeFileAtomic(file.path, serializeDocument(document));
    return { ...result, ...kept, changes: resolved.changes.length, rewritten: true };
  });
}

/** The refusal of a rebase, one line per conflicting path; the error keeps the conflicts for `--json`. */
export class RebaseConflictError extends TurnkitError {
  /** Every conflicting change with the base, old and new values. */
  readonly conflicts: readonly ChangeConflict[];
  /** Problems no choice of side resolves (a change outside the turn, a key changed): a resolver cannot help. */
  readonly unresolvable: readonly string[];
  /** The constructed fixture and the new base, as messages show them. */
  readonly files: { readonly file: string; readonly base: string };

  constructor(
    message: string,
    problems: readonly string[],
    conflicts: readonly ChangeConflict[],
    unresolvable: readonly string[] = [],
    files: { file: string; base: string } = { file: '', base: '' },
  ) {
    super('FIXTURE', message, problems);
    this.conflicts = conflicts;
    this.unresolvable = unresolvable;
    this.files = files;
  }
}

function conflictError(
  file: string,
  base: string,
  conflicts: readonly ChangeConflict[],
  rule: readonly string[],
): RebaseConflictError {
  const ruleLines = rule.filter((line) => !conflicts.some((conflict) => line.startsWith(`${conflict.path}:`)));
  const lines = [...ruleLines, ...conflicts.map(describeConflict)].map((line) => `${file}: ${line}`);
  const summary = `${file}: cannot rebase onto ${base}: ${lines.length} conflicting path(s); nothing written (--keep PATH=base or PATH=change resolves one; --interactive chooses on screen)`;
  return new RebaseConflictError(summary, [summary, ...lines], conflicts, ruleLines, { file, base });
}
