/** A registry list of keys: single keys, and runs of consecutive integers as [first, last] (inclusive). */
export type KeyList = (string | [string, string])[];

// Canonical integers only: '007' and '-0' are other keys than 7 and 0.
const INTEGER = /^(0|-?[1-9]\d*)$/;

/**
 * Packs keys for the registry. Keys drawn from one sequence in one call are nearly always consecutive, so a seed
 * of 5,000 turns records one pair instead of 5,000 strings; other keys (uuids, composite keys) stay as they are.
 */
export function packKeys(keys: readonly string[]): KeyList {
  const integers = keys
    .filter((key) => INTEGER.test(key))
    .map(BigInt)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const packed: KeyList = keys.filter((key) => !INTEGER.test(key));
  for (let i = 0; i < integers.length; ) {
    let j = i;
    while (j + 1 < integers.length && integers[j + 1]! - integers[j]! <= 1n) j++;
    packed.push(i === j ? String(integers[i]) : [String(integers[i]), String(integers[j])]);
    i = j + 1;
  }
  return packed;
}

/** Unpacks a registry key list into single keys. */
export function unpackKeys(list: KeyList): string[] {
  const keys: string[] = [];
  for (const item of list) {
    if (typeof item === 'string') keys.push(item);
    else for (let key = BigInt(item[0]); key <= BigInt(item[1]); key++) keys.push(String(key));
  }
  return keys;
}

/** A registry key back into its tuple of values (composite keys are JSON arrays, as `tupleKey` makes them). */
export function parseTupleKey(key: string, width: number): string[] {
  return width === 1 ? [key] : (JSON.parse(key) as string[]);
}
