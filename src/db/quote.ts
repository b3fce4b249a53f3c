/** Quotes an SQL identifier; config and catalog names are always quoted so `"Odd Name"` works. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Quotes a schema-qualified table name. */
export function quoteTable(schema: string, table: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(table)}`;
}

/** Quotes a string as an SQL literal (standard_conforming_strings: only the quote is doubled), where no parameter can go. */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
