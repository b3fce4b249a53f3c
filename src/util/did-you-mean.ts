import { distance } from 'fastest-levenshtein';

/**
 * ` (did you mean "X"?)` for a name turnkit does not know (a table or column the database lacks, a key a file may
 * not hold): a known name that differs only in case or schema prefix, else the closest by edit distance when it is
 * close enough to be a typo; empty when nothing is near.
 */
export function didYouMean(name: string, known: readonly string[]): string {
  const bare = (value: string): string => value.toLowerCase().replace(/^public\./, '');
  const same = known.find((candidate) => bare(candidate) === bare(name) || bare(candidate).endsWith(`.${bare(name)}`));
  if (same) return ` (did you mean "${same}"?)`;
  // A name cut short or ended differently ("turn_no" for "turn_number") is a typo edit distance would miss: the one
  // known name that shares more than half of it as a prefix.
  const shared = (candidate: string): number => {
    let at = 0;
    while (at < name.length && bare(candidate)[at] === bare(name)[at]) at++;
    return at;
  };
  const prefixed = known.filter((candidate) => shared(candidate) >= 4 && shared(candidate) * 2 > name.length);
  if (prefixed.length === 1) return ` (did you mean "${prefixed[0]}"?)`;
  if (known.length === 0) return '';
  // The nearest by edit distance; of equals, the one closest in length ("siad" is "said" swapped, not "id").
  const scored = known.map((candidate) => ({
    candidate,
    edits: distance(bare(name), bare(candidate)),
    length: Math.abs(candidate.length - name.length),
  }));
  const best = scored.sort((a, b) => a.edits - b.edits || a.length - b.length)[0]!;
  // A third of the name's length (at least two edits): "campains" finds "campaigns", "xyz" finds nothing.
  return best.edits <= Math.max(2, Math.floor(name.length / 3)) ? ` (did you mean "${best.candidate}"?)` : '';
}
