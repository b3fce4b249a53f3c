import { z } from 'zod';
import { TurnkitError } from '../errors.js';
import { issueLines, jsonLocator, sourceLocator } from './issue-lines.js';
import { configSchema, type TurnkitConfig } from './schema.js';

/**
 * Checks a config's value against the schema. Every problem is one line `file:line:col: $.path: message`, as a
 * question's are; an unknown key names the known key it most resembles ("tabel": did you mean "table"?). The place
 * is exact in a JSON config; in a .ts or .js config it is where the key is first written along its path.
 */
export function parseConfigValue(
  value: unknown,
  text: string | undefined,
  shown: string,
  json: boolean,
): TurnkitConfig {
  const result = configSchema.safeParse(value);
  if (result.success) return result.data;
  const locate = text === undefined ? () => undefined : json ? jsonLocator(text) : sourceLocator(text);
  const problems = issueLines(result.error.issues, { value, text, shown, locate }, knownKeys);
  throw new TurnkitError('BAD_INPUT', problems[0]!, problems);
}

// The keys the config accepts at a path, read from its schema, for "did you mean".
function knownKeys(path: readonly PropertyKey[]): string[] {
  let schema: z.ZodType | undefined = configSchema;
  for (const segment of path) {
    schema = unwrap(schema);
    if (schema instanceof z.ZodObject) schema = (schema.shape as Record<string, z.ZodType>)[String(segment)];
    else if (schema instanceof z.ZodArray) schema = schema.element as z.ZodType;
    else if (schema instanceof z.ZodRecord) schema = schema.valueType as z.ZodType;
    else return [];
  }
  schema = unwrap(schema);
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

// Defaults and optionals wrap the object a key belongs to.
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let inner = schema;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  return inner;
}
