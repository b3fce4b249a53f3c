// Apart from checks-format.ts (zod's schemas): the lean shapes of a run's manifest (question/lean-formats.ts) run the
// same rules without loading zod.

/** A check's regular expression as it runs: a plain string gets the `u` flag, an entry with flags gets exactly those. */
export function checkRegex(entry: string | { pattern: string; flags?: string | undefined }): RegExp {
  return typeof entry === 'string' ? new RegExp(entry, 'u') : new RegExp(entry.pattern, entry.flags ?? 'u');
}

/** The terms of a term list, written bare or as `{ terms }`. */
export function termsOf(list: readonly string[] | { terms: readonly string[] }): readonly string[] {
  return Array.isArray(list) ? list : (list as { terms: readonly string[] }).terms;
}
