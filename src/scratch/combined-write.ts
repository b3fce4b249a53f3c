/** A combined write failed: the caller rolls back and writes again table by table, for an error that names the table. */
export class CombinedWriteFailed extends Error {
  /** True when the server refused the statement (SQLSTATE of a data or constraint error), false when the connection failed. */
  readonly refused: boolean;

  /** Wraps the database's error. */
  constructor(override readonly cause: unknown) {
    super((cause as Error)?.message ?? String(cause));
    const code = (cause as { code?: unknown })?.code;
    this.refused = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^(08|53|57|58|XX)/.test(code);
  }
}
