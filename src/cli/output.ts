/** Where a command prints; tests pass their own to capture output. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

/** Prints to the process's stdout and stderr. */
export const processOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Prints a value as two-space JSON (for --json). */
export function printJson(output: Output, value: unknown): void {
  output.out(JSON.stringify(value, null, 2));
}

/** Pads columns of a small text table so it lines up in a terminal. */
export function formatTable(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd());
}
