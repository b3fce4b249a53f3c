import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { diffFixtures } from '../fixture/constructed/diff-fixtures.js';
import { TurnkitError } from '../errors.js';
import { changePath, changesetOf } from '../fixture/constructed/column-change.js';
import type { ConstructedFixture } from '../fixture/constructed/constructed-format.js';
import { CONSTRUCTED_SCHEMA_FILE } from '../fixture/constructed/constructed-format.js';
import { serializeDocument, type Fixture } from '../fixture/format.js';
import { loadFixture, portablePath, type LoadedFixture } from '../fixture/load-fixture.js';
import { readConstructed } from '../fixture/constructed/read-constructed.js';
import { parseFixtureText } from '../fixture/read-fixture.js';
import { checkSingleTurn } from '../fixture/turns/single-turn-rule.js';
import { shownPath } from '../util/shown-path.js';

/** A constructed fixture that follows its captured base through an upgrade: read (and materialized) beforehand. */
export interface Follower {
  /** Absolute path of the constructed file. */
  file: string;
  loaded: LoadedFixture & { constructed: NonNullable<LoadedFixture['constructed']> };
}

/** Whether a file is a constructed fixture (by its `format`), without loading its base. */
export async function isConstructedFile(file: string): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return /"format"\s*:\s*"turnkit\.constructed\/1"/.test(text.slice(0, 400));
}

/**
 * The constructed fixtures that follow an upgrade (those named, and those whose base is upgraded), materialized now:
 * after a base is rewritten its recorded hash no longer matches. Named ones bring their base into the upgrade.
 */
export async function followersOf(
  constructedDir: string,
  named: readonly string[],
  capturedFiles: ReadonlySet<string>,
): Promise<{ followers: Follower[]; refused: { file: string; why: string }[]; bases: string[] }> {
  const candidates = new Set(named);
  const names = await readdir(constructedDir).catch(() => [] as string[]);
  for (const name of names.sort()) {
    if (!name.endsWith('.json') || name === CONSTRUCTED_SCHEMA_FILE) continue;
    const file = join(constructedDir, name);
    const read = await readConstructed(file).catch(() => undefined);
    if (read && capturedFiles.has(read.basePath)) candidates.add(file);
  }
  const followers: Follower[] = [];
  const refused: { file: string; why: string }[] = [];
  const bases: string[] = [];
  for (const file of candidates) {
    try {
      const loaded = await loadFixture(file);
      if (!loaded.constructed) continue;
      if (loaded.constructed.base.constructed) {
        refused.push({ file, why: `its base ${loaded.constructed.base.shown} is constructed: rebase it by hand` });
        continue;
      }
      followers.push({ file, loaded: loaded as Follower['loaded'] });
      bases.push(loaded.constructed.base.path);
    } catch (error) {
      if (!(error instanceof TurnkitError)) throw error;
      refused.push({ file, why: error.message });
    }
  }
  return { followers, refused, bases };
}

/**
 * Re-records a constructed fixture as the diff from its upgraded base (read from `read`, recorded as `path`) to its
 * own upgraded state; returns its new text, or why it is left as it was (a changed column gone, not one turn).
 */
export async function rerecordFollower(
  follower: Follower,
  upgradedBase: { read: string; path: string },
  upgradedStateFile: string,
  target: string,
): Promise<{ text: string } | { why: string }> {
  const baseText = await readFile(upgradedBase.read, 'utf8');
  const base = parseFixtureText(baseText, shownPath(upgradedBase.path));
  const state = parseFixtureText(await readFile(upgradedStateFile, 'utf8'), shownPath(upgradedStateFile));
  // Only the rows can differ: the rest is the base's (name, capture time, chain).
  const diff = diffFixtures(base, { ...base, tables: state.tables } as Fixture);
  const old = follower.loaded.constructed;
  const dropped = old.changes.filter(
    (change) =>
      !base.tables[change.table]?.columns.some((column) => column.name === change.column) &&
      !diff.changes.some((now) => now.table === change.table && now.row === change.row),
  );
  if (dropped.length > 0)
    return {
      why: `the migrations dropped what it changes (${dropped
        .map((change) => changePath(change, old.base.fixture.tables[change.table]?.primaryKey ?? []))
        .join(', ')}): left as it was; construct it again on the upgraded base`,
    };
  if (diff.problems.length > 0) return { why: `after the migrations ${diff.problems[0]}: left as it was` };
  if (diff.changes.length === 0) return { why: 'after the migrations nothing of its change is left: left as it was' };
  const rule = checkSingleTurn(base, diff.changes, old.document.turn);
  if (rule.length > 0)
    return { why: `after the migrations its change no longer fits turn ${old.document.turn}: ${rule[0]}` };
  const document: ConstructedFixture = {
    ...old.document,
    base: {
      path: portablePath(relative(dirname(target), upgradedBase.path)),
      sha256: createHash('sha256').update(baseText).digest('hex'),
    },
    changeset: changesetOf(diff.changes, base),
  };
  return { text: serializeDocument(document) };
}
