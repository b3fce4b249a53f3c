import type { Catalog } from '../db/catalog-types.js';
import { isMigrationTable } from './migration-tables.js';

/** One step from a table to the table it references: a foreign key, or a reference `init` proposes. */
export interface Link {
  from: string;
  columns: string[];
  to: string;
  toColumns: string[];
  /** Whether a column of it may be NULL (a row need not have the parent): paths prefer links that must. */
  optional?: boolean | undefined;
}

/** Every link of the catalog: its foreign keys, plus the extra links given (proposed references). */
export function linksOf(catalog: Catalog, extra: readonly Link[] = []): Link[] {
  const links: Link[] = [];
  for (const table of catalog.tables.values()) {
    if (isMigrationTable(table)) continue;
    for (const fk of table.foreignKeys) {
      const optional = fk.columns.some(
        (name) => table.columns.find((column) => column.name === name)?.nullable !== false,
      );
      links.push({
        from: table.name,
        columns: fk.columns,
        to: fk.references.table,
        toColumns: fk.references.columns,
        optional,
      });
    }
  }
  return [...links, ...extra];
}

/** Tables below `root` (reached from it through links pointing at it, to any depth), each with its depth; root is 0. */
export function tablesBelow(
  root: string,
  links: readonly Link[],
  blocked: ReadonlySet<string> = new Set(),
): Map<string, number> {
  const depth = new Map<string, number>([[root, 0]]);
  const queue = [root];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const link of links) {
      if (link.to !== current || depth.has(link.from) || blocked.has(link.from)) continue;
      depth.set(link.from, depth.get(current)! + 1);
      queue.push(link.from);
    }
  }
  return depth;
}

/**
 * The shortest chain of links from `table` up to `target`, through tables of `within`, by links a row must have
 * when there is such a chain (a session every entry has, not a player only some have); undefined when none.
 */
export function pathUp(
  table: string,
  target: string,
  links: readonly Link[],
  within: ReadonlySet<string> | ReadonlyMap<string, unknown>,
): Link[] | undefined {
  return (
    shortestUp(
      table,
      target,
      links.filter((link) => !link.optional),
      within,
    ) ?? shortestUp(table, target, links, within)
  );
}

function shortestUp(
  table: string,
  target: string,
  links: readonly Link[],
  within: ReadonlySet<string> | ReadonlyMap<string, unknown>,
): Link[] | undefined {
  const via = new Map<string, Link[]>([[table, []]]);
  const queue = [table];
  while (queue.length > 0) {
    const current = queue.shift()!;
    if (current === target) return via.get(current);
    for (const link of links) {
      if (link.from !== current || link.to === current || via.has(link.to) || !within.has(link.to)) continue;
      via.set(link.to, [...via.get(current)!, link]);
      queue.push(link.to);
    }
  }
  return undefined;
}
