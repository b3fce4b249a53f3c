/**
 * Where a query next occurs in a text from an offset (or before it, backwards), wrapping around the end; undefined
 * when it does not occur. Smart case, as in less and vim: a query with a capital letter matches case exactly.
 */
export function findMatch(text: string, query: string, from: number, direction: -1 | 1 = 1): number | undefined {
  if (query === '') return undefined;
  const exact = /\p{Lu}/u.test(query);
  const haystack = exact ? text : text.toLowerCase();
  const needle = exact ? query : query.toLowerCase();
  // toLowerCase keeps the length of most text; where it does not, offsets would shift, so match exactly instead.
  const [hay, pin] = haystack.length === text.length ? [haystack, needle] : [text, query];
  if (direction > 0) {
    const ahead = hay.indexOf(pin, from);
    const found = ahead >= 0 ? ahead : hay.indexOf(pin);
    return found >= 0 ? found : undefined;
  }
  const behind = from > 0 ? hay.lastIndexOf(pin, from - 1) : -1;
  const found = behind >= 0 ? behind : hay.lastIndexOf(pin);
  return found >= 0 ? found : undefined;
}

/** How many times a query occurs (for "match 2 of 5"), and which one starts at `at`, counted from 1. */
export function matchCount(text: string, query: string, at: number | undefined): { count: number; index: number } {
  if (query === '') return { count: 0, index: 0 };
  const exact = /\p{Lu}/u.test(query);
  const hay = exact || text.toLowerCase().length !== text.length ? text : text.toLowerCase();
  const pin = hay === text ? query : query.toLowerCase();
  let count = 0;
  let index = 0;
  for (let i = hay.indexOf(pin); i >= 0; i = hay.indexOf(pin, i + 1)) {
    count++;
    if (i === at) index = count;
  }
  return { count, index };
}
