import type { Catalog } from '../db/catalog-types.js';
import type { Finding } from '../fixture/scrub/detect-sensitive.js';
import { columnShape } from '../fixture/scrub/column-shape.js';
import { KIND_TEXT, kindByName, kindByType } from '../fixture/scrub/name-detector.js';
import { suggestedScrubBlock } from '../fixture/scrub/suggest-rules.js';

/**
 * The config's `scrub` rules for a new project: each non-key column that looks personal or secret (as capture's
 * detector sees it), with the transform that keeps its shape, so that the first capture scrubs instead of refusing.
 */
export function suggestScrub(catalog: Catalog): string[] {
  const findings: Finding[] = [];
  for (const table of catalog.tables.values()) {
    const keys = new Set([...table.primaryKey, ...table.foreignKeys.flatMap((foreignKey) => foreignKey.columns)]);
    table.columns.forEach((column, index) => {
      if (keys.has(column.name) || column.generated) return;
      const shape = columnShape(column.type);
      const byType = kindByType(shape);
      const kind = byType ?? kindByName(column.name, shape);
      if (!kind) return;
      const place = ['tables', table.name, 'columns', index];
      findings.push({
        table: table.name,
        column: column.name,
        kind,
        by: byType ? 'type' : 'name',
        type: column.type,
        nullable: column.nullable,
        shape,
        place,
      });
    });
  }
  if (findings.length === 0) return [];
  // The block's inner lines, each with why it is there.
  const block = suggestedScrubBlock(findings, false)
    .slice(1, -1)
    .map((line) => line.trim());
  return block.map((line, i) => `${line} // looks like ${KIND_TEXT[findings[i]!.kind]}`);
}
