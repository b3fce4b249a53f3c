// Apart from checks-format.ts (zod's schemas): the lean shapes of a run's manifest (question/lean-formats.ts) run the
// same rules without loading zod.
import { RE2JS } from 're2js';

/** A check's pattern as it runs: `test` answers in time linear in the text, whatever the pattern. */
export interface CheckPattern {
  readonly source: string;
  readonly flags: string;
  test(text: string): boolean;
}

/**
 * A check's regular expression as it runs (a plain string gets the `u` flag): JavaScript syntax run on RE2, because
 * a question's pattern is not trusted and backtracking can take exponential time (`^(a+)+$`); no lookarounds.
 */
export function checkRegex(entry: string | { pattern: string; flags?: string | undefined }): CheckPattern {
  const source = typeof entry === 'string' ? entry : entry.pattern;
  const flags = typeof entry === 'string' ? 'u' : (entry.flags ?? 'u');
  // JavaScript's rules first (an identity escape is an error under u): the syntax the question format documents.
  new RegExp(source, flags);
  let options = 0;
  if (flags.includes('i')) options |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) options |= RE2JS.MULTILINE;
  if (flags.includes('s')) options |= RE2JS.DOTALL;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source, options);
  } catch (error) {
    const why = (error as Error).message.replace(/^error parsing regexp: /, '');
    throw new SyntaxError(`${why}: patterns run in linear time (RE2), which has no lookarounds or backreferences`);
  }
  return { source, flags, test: (text) => compiled.matcher(text).find() };
}

/** A check's regular expression as messages show it: `/PATTERN/FLAGS`. */
export function shownPattern(entry: string | { pattern: string; flags?: string | undefined }): string {
  return typeof entry === 'string' ? `/${entry}/` : `/${entry.pattern}/${entry.flags ?? ''}`;
}

/** The terms of a term list, written bare or as `{ terms }`. */
export function termsOf(list: readonly string[] | { terms: readonly string[] }): readonly string[] {
  return Array.isArray(list) ? list : (list as { terms: readonly string[] }).terms;
}

/** The declared parts of a question's checks that `declaresAnyCheck` counts (the zod schema's and the lean shape's). */
export interface DeclaredChecks {
  mustContain: readonly string[] | { terms: readonly string[] };
  mustNotContain: readonly string[] | { terms: readonly string[] };
  matches: readonly unknown[];
  mustNotMatch: readonly unknown[];
  effects: { inserted: readonly unknown[]; noOutsideChanges: unknown };
  state?: { tables: Record<string, unknown>; onlyChanges?: unknown } | undefined;
  facts?: readonly unknown[] | undefined;
}

/** Whether checks declare at least one check: a `checks:` block of defaults alone would pass every rep. */
export function declaresAnyCheck(checks: DeclaredChecks): boolean {
  return (
    termsOf(checks.mustContain).length +
      termsOf(checks.mustNotContain).length +
      checks.matches.length +
      checks.mustNotMatch.length +
      checks.effects.inserted.length +
      (checks.facts?.length ?? 0) +
      Object.keys(checks.state?.tables ?? {}).length >
      0 ||
    checks.effects.noOutsideChanges !== false ||
    (checks.state?.onlyChanges ?? false) !== false
  );
}
