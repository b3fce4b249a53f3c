import { isDeepStrictEqual } from 'node:util';
import { TurnkitError } from '../errors.js';
import type { Fixture } from '../fixture/format.js';
import type { ChangeConflict } from '../fixture/apply-changes.js';
import { changePath, type ColumnChange } from '../fixture/column-change.js';

/** Which side of a conflict a rebase keeps: the new base's value (the change is dropped) or the change's value. */
export type KeepSide = 'base' | 'change';

/** A choice for one conflicting path, or for every conflict when `path` is absent. */
export interface KeepChoice {
  path?: string | undefined;
  keep: KeepSide;
}

/** The changes after the choices, and which path went which way. */
export interface ResolvedConflicts {
  changes: ColumnChange[];
  kept: { path: string; keep: KeepSide }[];
  /** Conflicts no choice covers: the rebase still refuses them. */
  unresolved: ChangeConflict[];
}

/**
 * Resolves a rebase's conflicts as chosen. Keeping the base drops the change (the new base's value stands); keeping
 * the change records the new base's value as its old value, so it applies again (and is dropped when it would set
 * what the base already holds). A choice for a path that is not in conflict is refused, as is keeping a change
 * whose row or column the new base no longer has.
 */
export function resolveConflicts(
  base: Fixture,
  changes: readonly ColumnChange[],
  conflicts: readonly ChangeConflict[],
  choices: readonly KeepChoice[],
): ResolvedConflicts {
  const byPath = new Map(conflicts.map((conflict) => [conflict.path, conflict]));
  for (const choice of choices) {
    if (choice.path !== undefined && !byPath.has(choice.path)) {
      const known =
        conflicts.length > 0
          ? ` (conflicting: ${conflicts.map((conflict) => conflict.path).join(', ')})`
          : ' (nothing conflicts)';
      throw new TurnkitError('USAGE', `--keep ${choice.path}=${choice.keep}: not a conflicting path${known}`);
    }
  }
  const choiceFor = (path: string): KeepSide | undefined =>
    (choices.find((choice) => choice.path === path) ?? choices.find((choice) => choice.path === undefined))?.keep;
  const resolved: ColumnChange[] = [];
  const kept: ResolvedConflicts['kept'] = [];
  const unresolved: ChangeConflict[] = [];
  for (const change of changes) {
    const path = changePath(change, base.tables[change.table]?.primaryKey ?? []);
    const conflict = byPath.get(path);
    if (!conflict) {
      resolved.push(change);
      continue;
    }
    const keep = choiceFor(path);
    if (keep === undefined) {
      unresolved.push(conflict);
      resolved.push(change);
      continue;
    }
    kept.push({ path, keep });
    if (keep === 'base') continue;
    if (conflict.base === undefined)
      throw new TurnkitError(
        'BAD_INPUT',
        `--keep ${path}=change: the new base has no such row or column; keep the base (drop the change) instead`,
      );
    if (!isDeepStrictEqual(conflict.base, change.value)) resolved.push({ ...change, oldValue: conflict.base });
  }
  return { changes: resolved, kept, unresolved };
}
