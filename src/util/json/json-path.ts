/** One step of a JSON path: a key, an index, every child (`*`), or a key at any depth (`..key`). */
export type JsonPathStep =
  | { kind: 'key'; key: string }
  | { kind: 'index'; index: number }
  | { kind: 'any' }
  | { kind: 'deep'; key: string };

const NAME = /^[A-Za-z_$][\w$-]*/;

/**
 * Parses the small JSONPath subset scrub rules use: `$`, `.key`, `['key']`, `[n]`, `[*]`, `.*` and `..key`.
 * Returns undefined when the text is not such a path (the caller names the config place).
 */
export function parseJsonPath(text: string): JsonPathStep[] | undefined {
  if (!text.startsWith('$')) return undefined;
  const steps: JsonPathStep[] = [];
  let rest = text.slice(1);
  while (rest.length > 0) {
    let match: RegExpExecArray | null;
    if (rest.startsWith('..')) {
      const name = NAME.exec(rest.slice(2));
      if (!name) return undefined;
      steps.push({ kind: 'deep', key: name[0] });
      rest = rest.slice(2 + name[0].length);
    } else if (rest.startsWith('.*')) {
      steps.push({ kind: 'any' });
      rest = rest.slice(2);
    } else if (rest.startsWith('.')) {
      const name = NAME.exec(rest.slice(1));
      if (!name) return undefined;
      steps.push({ kind: 'key', key: name[0] });
      rest = rest.slice(1 + name[0].length);
    } else if ((match = /^\[\*\]/.exec(rest))) {
      steps.push({ kind: 'any' });
      rest = rest.slice(match[0].length);
    } else if ((match = /^\[(\d+)\]/.exec(rest))) {
      steps.push({ kind: 'index', index: Number(match[1]) });
      rest = rest.slice(match[0].length);
    } else if ((match = /^\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]/.exec(rest))) {
      steps.push({ kind: 'key', key: (match[1] ?? match[2]!).replace(/\\(.)/g, '$1') });
      rest = rest.slice(match[0].length);
    } else {
      return undefined;
    }
  }
  return steps;
}

/**
 * Replaces every value the path selects inside `value` with `replace(old)`, returning the new value; the input is
 * not modified. A path that selects nothing leaves the value as it is.
 */
export function replaceAtPath(
  value: unknown,
  steps: readonly JsonPathStep[],
  replace: (old: unknown) => unknown,
): unknown {
  if (steps.length === 0) return replace(value);
  const [step, ...rest] = steps as [JsonPathStep, ...JsonPathStep[]];
  if (value === null || typeof value !== 'object') return value;
  if (step.kind === 'deep') return replaceDeep(value, step.key, rest, replace);
  if (Array.isArray(value)) {
    if (step.kind === 'any') return value.map((item) => replaceAtPath(item, rest, replace));
    if (step.kind !== 'index' || step.index >= value.length) return value;
    const copy = [...value];
    copy[step.index] = replaceAtPath(value[step.index], rest, replace);
    return copy;
  }
  const object = value as Record<string, unknown>;
  if (step.kind === 'any') return mapObject(object, (inner) => replaceAtPath(inner, rest, replace));
  if (step.kind !== 'key' || !Object.hasOwn(object, step.key)) return value;
  return { ...object, [step.key]: replaceAtPath(object[step.key], rest, replace) };
}

function replaceDeep(
  value: unknown,
  key: string,
  rest: readonly JsonPathStep[],
  replace: (old: unknown) => unknown,
): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => replaceDeep(item, key, rest, replace));
  return mapObject(value as Record<string, unknown>, (inner, name) =>
    name === key ? replaceAtPath(inner, rest, replace) : replaceDeep(inner, key, rest, replace),
  );
}

function mapObject(
  object: Record<string, unknown>,
  map: (value: unknown, key: string) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(object)) out[key] = map(inner, key);
  return out;
}

/** Formats a path of object keys and array indices as `$.a.b[*]`, with every array index written `[*]`. */
export function genericJsonPath(path: readonly (string | number)[]): string {
  let out = '$';
  for (const segment of path) {
    if (typeof segment === 'number') out += '[*]';
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** True when the path selects the value at `concrete` (object keys and array indices from the document's root). */
export function pathSelects(steps: readonly JsonPathStep[], concrete: readonly (string | number)[]): boolean {
  if (steps.length === 0) return concrete.length === 0;
  const [step, ...rest] = steps as [JsonPathStep, ...JsonPathStep[]];
  if (concrete.length === 0) return false;
  const [head, ...tail] = concrete as [string | number, ...(string | number)[]];
  switch (step.kind) {
    case 'any':
      return pathSelects(rest, tail);
    case 'index':
      return head === step.index && pathSelects(rest, tail);
    case 'key':
      return head === step.key && pathSelects(rest, tail);
    case 'deep':
      return (head === step.key && pathSelects(rest, tail)) || pathSelects(steps, tail);
  }
}

/** True when the path selects the value at `concrete` or a value holding it (a rule on an object scrubs its leaves). */
export function pathSelectsWithin(steps: readonly JsonPathStep[], concrete: readonly (string | number)[]): boolean {
  for (let length = concrete.length; length >= 0; length--)
    if (pathSelects(steps, concrete.slice(0, length))) return true;
  return false;
}
