/** Quotes an SQL identifier; config and catalog names are always quoted so `"Odd Name"` works. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Quotes a schema-qualified table name. */
export function quoteTable(schema: string, table: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(table)}`;
}
