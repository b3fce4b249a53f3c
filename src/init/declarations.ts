import type { Catalog, TableInfo } from '../db/catalog-types.js';
import { type Link, linksOf, pathUp, tablesBelow } from './game-shape.js';
import { isMigrationTable } from './migration-tables.js';
import { isInteger, TURN_COLUMN, type InitFacts } from './read-facts.js';

/** A declaration `init` proposes for the config (items 3 to 5 of the real-games config), with why. */
export interface Proposal {
  key: string;
  value: string;
  why: string;
}

/** What `init` proposes beyond the game's names: references, turn columns, unique columns, and what it could not infer. */
export interface Declarations {
  references: Proposal[];
  turnColumns: Proposal[];
  /** Unique non-key columns of owned tables, which scratch copies give fresh values (nothing to write by default). */
  unique: Proposal[];
  /** One line per declaration `init` could not infer. */
  missing: string[];
}

// `roomId`, `room_id`, `roomID`: a column named like another table's key.
const KEY_NAME = /^(.+?)_?(id|Id|ID)$/;

/** Columns named like `<table>Id` / `<table>_id` with no foreign key, whose table exists: proposed references. */
export function proposeReferences(catalog: Catalog): { links: Link[]; proposals: Proposal[]; unmatched: string[] } {
  const links: Link[] = [];
  const proposals: Proposal[] = [];
  const unmatched: string[] = [];
  const tables = [...catalog.tables.values()].filter((table) => !isMigrationTable(table));
  for (const table of tables) {
    const fkColumns = new Set(table.foreignKeys.flatMap((fk) => fk.columns));
    for (const column of table.columns) {
      const match = KEY_NAME.exec(column.name);
      if (!match || fkColumns.has(column.name) || column.generated || /^(uuid|guid)$/i.test(column.name)) continue;
      if (table.primaryKey.length === 1 && table.primaryKey[0] === column.name) continue;
      const stem = normalize(match[1]!);
      if (stem === '') continue;
      // A polymorphic pair (`commentable_id` beside `commentable_type`) names its table in the other column.
      if (table.columns.some((other) => normalize(other.name) === `${stem}type`)) continue;
      const target = findTarget(tables, stem);
      if (target?.primaryKey.length !== 1) {
        if (!target) unmatched.push(`${table.name}.${column.name}`);
        continue;
      }
      const key = target.primaryKey[0]!;
      const targetKey = target.columns.find((candidate) => candidate.name === key);
      if (targetKey && targetKey.codec.kind !== column.codec.kind) continue;
      links.push({ from: table.name, columns: [column.name], to: target.name, toColumns: [key] });
      proposals.push({
        key: `${table.name}.${column.name}`,
        value: target.name,
        why: `named like the key of ${target.name}, with no foreign key`,
      });
    }
  }
  return { links, proposals, unmatched };
}

/**
 * The declarations the chosen game needs: references (above), turn columns of owned tables with no path to the
 * turns, unique non-key columns of owned tables, and one line per thing left to declare.
 */
export function proposeDeclarations(
  catalog: Catalog,
  facts: InitFacts,
  game: { root: string; turns: string; shared: readonly string[]; exclude: readonly string[] },
): Declarations {
  const { links: referenceLinks, proposals, unmatched } = proposeReferences(catalog);
  const blocked = new Set([...game.shared, ...game.exclude]);
  const links = linksOf(catalog, referenceLinks).filter((link) => !blocked.has(link.from) && !blocked.has(link.to));
  const owned = tablesBelow(game.root, links, blocked);
  const references = proposals.filter((proposal) => {
    const [from] = splitColumn(proposal.key);
    return !blocked.has(from) && (owned.has(from) || owned.has(proposal.value));
  });
  const turnColumns: Proposal[] = [];
  const unique: Proposal[] = [];
  // The root and the tables between it and the turns hold the present (a current-turn counter), not rows of turns.
  const above = new Set((pathUp(game.turns, game.root, links, owned) ?? []).map((link) => link.to));
  for (const name of owned.keys()) {
    const table = catalog.tables.get(name)!;
    if (name !== game.turns && !above.has(name) && !pathUp(name, game.turns, links, owned)) {
      const column = table.columns.find((candidate) => isInteger(candidate) && TURN_COLUMN.test(candidate.name));
      if (column)
        turnColumns.push({
          key: name,
          value: column.name,
          why: `named like a turn, and ${name} has no foreign-key path to ${game.turns}`,
        });
    }
    unique.push(...uniqueColumns(table, facts, links));
  }
  const missing = unmatched
    .filter((place) => owned.has(splitColumn(place)[0]))
    .map(
      (place) =>
        `game.references: ${place} is named like a key of another row, but no table is named so; if it refers to one, add '${place}': 'TABLE'`,
    );
  return { references, turnColumns, unique, missing };
}

// Unique constraints and indexes of a table with no key column in them: values a scratch copy would collide on.
function uniqueColumns(table: TableInfo, facts: InitFacts, links: readonly Link[]): Proposal[] {
  const keyColumns = new Set([
    ...table.primaryKey,
    ...links.filter((link) => link.from === table.name).flatMap((link) => link.columns),
  ]);
  const seen = new Set<string>();
  const found: Proposal[] = [];
  for (const columns of [...table.uniqueKeys, ...(facts.unique.get(table.name) ?? [])]) {
    if (columns.some((column) => keyColumns.has(column))) continue;
    const key = `${table.name}.${columns.join('+')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push({
      key,
      value: 'fresh',
      why: 'unique, not a key: each scratch copy gets a fresh value of the same shape',
    });
  }
  return found;
}

/** Splits `table.column` at the last dot (a table may be schema-qualified). */
function splitColumn(place: string): [string, string] {
  const dot = place.lastIndexOf('.');
  return [place.slice(0, dot), place.slice(dot + 1)];
}

function findTarget(tables: readonly TableInfo[], stem: string): TableInfo | undefined {
  const exact = tables.filter((table) => singular(normalize(table.table)) === stem);
  if (exact.length === 1) return exact[0];
  if (exact.length > 1) return undefined;
  // `sessionId` -> GameSession, when exactly one table's name ends so.
  const ending = tables.filter((table) => singular(normalize(table.table)).endsWith(stem));
  return ending.length === 1 ? ending[0] : undefined;
}

function normalize(name: string): string {
  return singular(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

function singular(name: string): string {
  if (name.endsWith('ies') && name.length > 4) return `${name.slice(0, -3)}y`;
  if (name.endsWith('sses')) return name.slice(0, -2);
  if (name.endsWith('s') && !name.endsWith('ss') && name.length > 3) return name.slice(0, -1);
  return name;
}
