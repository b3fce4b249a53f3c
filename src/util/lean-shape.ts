// A zod-free check of a JSON value's shape, for files a short command reads on every start (a run's manifest, its
// screens file): zod's import and the building of its schemas cost `turnkit report` more than everything else it
// does. A lean shape says only "this value is exactly what its zod schema would return for it" (`true`) or "ask the
// schema" (`false`): the schema stays the one definition, and the reader falls back to it, for its messages and for
// whatever the lean shape does not say (a default to fill in, a string to trim). test/unit/lean-shapes.test.ts holds
// each lean shape to its schema on a corpus of good and broken values.

/** A check of one value: true only when its zod schema would accept it and return it unchanged. */
export type Shape = (value: unknown) => boolean;

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field of `object`: its shape, and whether it may be absent. */
interface Field {
  shape: Shape;
  optional: boolean;
}

/** A field that may be absent (zod's `.optional()`). A field with a default is not one: absent, it is filled in. */
export function optional(shape: Shape): Field {
  return { shape, optional: true };
}

/** A strict object (zod's `.strict()`): exactly these keys, the optional ones maybe absent. */
export function object(fields: Record<string, Shape | Field>): Shape {
  const entries = Object.entries(fields).map(
    ([key, field]) => [key, typeof field === 'function' ? { shape: field, optional: false } : field] as const,
  );
  const known = new Set(Object.keys(fields));
  return (value) => {
    if (!isRecord(value)) return false;
    for (const key of Object.keys(value)) if (!known.has(key)) return false;
    for (const [key, field] of entries) {
      if (!Object.hasOwn(value, key)) {
        if (!field.optional) return false;
      } else if (!field.shape(value[key])) return false;
    }
    return true;
  };
}

/** A string; `trimmed`: one zod's `.trim()` would leave as it is; `min`/`max` on its length; `pattern` to match. */
export function string(rules: { trimmed?: boolean; min?: number; max?: number; pattern?: RegExp } = {}): Shape {
  return (value) =>
    typeof value === 'string' &&
    (!rules.trimmed || value === value.trim()) &&
    value.length >= (rules.min ?? 0) &&
    value.length <= (rules.max ?? Number.POSITIVE_INFINITY) &&
    (!rules.pattern || rules.pattern.test(value));
}

/** A finite number; `int`: a safe integer (zod's `.int()`); `min`/`max` inclusive. */
export function number(rules: { int?: boolean; min?: number; max?: number } = {}): Shape {
  return (value) =>
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!rules.int || Number.isSafeInteger(value)) &&
    value >= (rules.min ?? Number.NEGATIVE_INFINITY) &&
    value <= (rules.max ?? Number.POSITIVE_INFINITY);
}

/** true or false. */
export const boolean: Shape = (value) => typeof value === 'boolean';

/** Any value (zod's `z.unknown()`). */
export const unknown: Shape = () => true;

/** One of these literal values (zod's `z.enum` or `z.literal`). */
export function oneOf(...values: readonly (string | number | boolean | null)[]): Shape {
  return (value) => values.includes(value as string);
}

/** The value, or null (zod's `.nullable()`). */
export function nullable(shape: Shape): Shape {
  return (value) => value === null || shape(value);
}

/** An array of items of the shape, at least `min` of them. */
export function array(item: Shape, min = 0): Shape {
  return (value) => Array.isArray(value) && value.length >= min && value.every(item);
}

/** An object of any string keys, each value of the shape (zod's `z.record(z.string(), ...)`). */
export function record(shape: Shape): Shape {
  return (value) => isRecord(value) && Object.values(value).every(shape);
}

/** Any of the shapes (zod's `z.union`: each option returns its input as it is, so the first match's is the same). */
export function anyOf(...shapes: Shape[]): Shape {
  return (value) => shapes.some((shape) => shape(value));
}

/** The shape, and then the condition (zod's `.refine`/`.superRefine`, run on a value the shape accepted). */
export function refined<T>(shape: Shape, condition: (value: T) => boolean): Shape {
  return (value) => shape(value) && condition(value as T);
}
