/** A combined write failed: the caller rolls back and writes again table by table, for an error that names the table. */
export class CombinedWriteFailed extends Error {
  /** True when the server refused the statement (a data or constraint error), false when the connection failed. */
  readonly refused: boolean;

  /** Wraps the database's error. */
  constructor(override readonly cause: unknown) {
    super((cause as Error)?.message ?? String(cause));
    // Only an error the server sent (it has a severity) is a refusal; a socket error (EPIPE) is a lost connection.
    const err = (cause ?? {}) as { code?: unknown; severity?: unknown };
    const code = err.code;
    this.refused = typeof err.severity === 'string' && typeof code === 'string' && !/^(08|53|57|58|XX)/.test(code);
  }
}
