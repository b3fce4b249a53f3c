/**
 * Where a query next occurs in a text from an offset (or before it, backwards), wrapping around the end; undefined
 * when it does not occur. Smart case, as in less and vim: a query with a capital letter matches case exactly.
 */
export function findMatch(text: string, query: string, from: number, direction: -1 | 1 = 1): number | undefined {
  if (query === '') return undefined;
  const [hay, pin] = searched(text, query);
  const near = direction > 0 ? hay.indexOf(pin, from) : from > 0 ? hay.lastIndexOf(pin, from - 1) : -1;
  const found = near >= 0 ? near : direction > 0 ? hay.indexOf(pin) : hay.lastIndexOf(pin);
  return found >= 0 ? found : undefined;
}

/** How many times a query occurs (for "match 2 of 5"), and which one starts at `at`, counted from 1. */
export function matchCount(text: string, query: string, at: number | undefined): { count: number; index: number } {
  if (query === '') return { count: 0, index: 0 };
  const [hay, pin] = searched(text, query);
  let count = 0;
  let index = 0;
  for (let i = hay.indexOf(pin); i >= 0; i = hay.indexOf(pin, i + 1)) {
    count++;
    if (i === at) index = count;
  }
  return { count, index };
}

// The text and query as smart case compares them. toLowerCase keeps the length of most text; where it does not,
// offsets would shift, so the match is exact instead.
function searched(text: string, query: string): [string, string] {
  const lower = text.toLowerCase();
  return /\p{Lu}/u.test(query) || lower.length !== text.length ? [text, query] : [lower, query.toLowerCase()];
}
