/**
 * Screen names made unique in order: the second rule that would be `required-create_job` becomes
 * `required-create_job-2`, so that each screen keeps a result of its own.
 */
export function screenNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  const taken = new Set(names);
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    if (count === 1) return name;
    let n = count;
    while (taken.has(`${name}-${n}`)) n++;
    taken.add(`${name}-${n}`);
    return `${name}-${n}`;
  });
}
