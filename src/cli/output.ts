/** Where a command prints; tests pass their own to capture output. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
  /** Writes raw text to stderr when it is a terminal (a progress line redrawn in place); absent otherwise. */
  terminal?: ((text: string) => void) | undefined;
}

/** Prints to the process's stdout and stderr (`run` makes every line's control characters visible first). */
export const processOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  terminal: process.stderr.isTTY === true ? (text) => process.stderr.write(text) : undefined,
};

/** Prints a value as two-space JSON (for --json). */
export function printJson(output: Output, value: unknown): void {
  output.out(JSON.stringify(value, null, 2));
}
