/** How a column lines up: text to the left, numbers to the right. */
export type Align = 'left' | 'right';

/** Pads columns of a small text table so it lines up in a terminal (the last column is not padded when left-aligned). */
export function formatTable(rows: readonly (readonly string[])[], align: readonly Align[] = []): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, i) =>
        align[i] === 'right' ? cell.padStart(widths[i]!) : i === row.length - 1 ? cell : cell.padEnd(widths[i]!),
      )
      .join('  ')
      .trimEnd(),
  );
}

/** A Markdown table: a header row, the separator (right-aligned columns marked), then the rows; pipes escaped. */
export function markdownTable(rows: readonly (readonly string[])[], align: readonly Align[] = []): string[] {
  const [header, ...body] = rows;
  if (!header) return [];
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  const line = (row: readonly string[]): string => `| ${row.map(cell).join(' | ')} |`;
  return [
    line(header),
    `|${header.map((_, i) => (align[i] === 'right' ? ' ---: ' : ' --- ')).join('|')}|`,
    ...body.map(line),
  ];
}
