import { TurnkitError } from '../errors.js';
import type { ForeignKeyInfo, TableInfo } from '../db/catalog-types.js';

/** A foreign key of a table, named with its table. */
interface TableForeignKey {
  table: string;
  fk: ForeignKeyInfo;
}

/** An order in which rows can be inserted (parents first) and, reversed, deleted; with the cycles broken. */
export interface DependencyOrder {
  /** Parents before children; delete in reverse. */
  order: string[];
  /** Cycle edges left to the database: deferrable constraints, checked at commit. */
  deferred: TableForeignKey[];
  /** Cycle edges that are not deferrable but nullable: written NULL on insert and set afterwards (on delete: nulled first). */
  nulled: TableForeignKey[];
}

/**
 * Orders tables so that every foreign key points at a table earlier in the order. Self-references need nothing
 * (one statement per table; Postgres checks them at its end). A cycle between tables is broken at a deferrable
 * foreign key when there is one, else at one whose columns are all nullable; a cycle with neither cannot be
 * inserted at all and is an error.
 */
export function dependencyOrder(tables: ReadonlyMap<string, TableInfo>): DependencyOrder {
  const edges: TableForeignKey[] = [];
  for (const [name, info] of tables) {
    for (const fk of info.foreignKeys) {
      // A declared reference (game.references) has no constraint to satisfy: rows may come in any order.
      if (fk.declared) continue;
      if (fk.references.table !== name && tables.has(fk.references.table)) edges.push({ table: name, fk });
    }
  }
  const deferred: TableForeignKey[] = [];
  const nulled: TableForeignKey[] = [];
  const live = new Set(edges);
  const order: string[] = [];
  const remaining = new Set([...tables.keys()].sort());

  while (remaining.size > 0) {
    const ready = [...remaining].filter(
      (name) => ![...live].some((edge) => edge.table === name && remaining.has(edge.fk.references.table)),
    );
    if (ready.length > 0) {
      for (const name of ready) {
        order.push(name);
        remaining.delete(name);
      }
      continue;
    }
    // Stuck: every remaining table waits on another. Cut the cheapest edge among them and go on.
    const stuck = [...live].filter((edge) => remaining.has(edge.table) && remaining.has(edge.fk.references.table));
    const deferrable = stuck.find((edge) => edge.fk.deferrable);
    const nullable = stuck.find((edge) =>
      edge.fk.columns.every((column) => isNullable(tables.get(edge.table)!, column)),
    );
    const cut = deferrable ?? nullable;
    if (!cut) {
      const cycle = [...new Set(stuck.map((edge) => edge.table))].sort().join(', ');
      throw new TurnkitError(
        'FIXTURE',
        `tables ${cycle} reference each other through foreign keys that are neither deferrable nor nullable: rows cannot be inserted in any order`,
      );
    }
    live.delete(cut);
    (cut === deferrable ? deferred : nulled).push(cut);
  }
  return { order, deferred, nulled };
}

function isNullable(info: TableInfo, column: string): boolean {
  return info.columns.find((candidate) => candidate.name === column)?.nullable ?? false;
}
