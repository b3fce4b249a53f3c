import type { z } from 'zod';

/**
 * Checks a value with a zod schema, its messages in turnkit's words (plainMessage): every schema turnkit checks is
 * checked through here, per parse, so that the words are the same whichever modules were loaded first (a global
 * `z.config` held only once a module setting it was), and zod's global settings (a project's own schemas, in the
 * same process) are left as they are. Only a type is imported from zod: a command that checks nothing loads none.
 */
export function safeParseInWords<T extends z.ZodType>(schema: T, value: unknown): z.ZodSafeParseResult<z.output<T>> {
  return schema.safeParse(value, { error: plainMessage });
}

/**
 * zod's messages in turnkit's words: a person reads them next to the place in their file
 * (`questions/q.yaml:3:7: $.sut.type: ...`), so they say what to write, not how zod types it ("Invalid input",
 * "Too small: expected string to have >=1 characters"). A message a schema gives itself is kept; a code not listed
 * here falls back to zod's own English.
 */
function plainMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'is required';
      return `expected ${typeWords(String(issue.expected))}, got ${valueWords(issue.input)}`;
    }
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `use one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'string') return minimum <= 1 ? 'must not be empty' : `needs at least ${minimum} characters`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return minimum <= 1 ? 'needs at least one item' : `needs at least ${minimum} items`;
      return `must be ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}`;
    }
    case 'too_big': {
      if (issue.origin === 'string') return `has more than ${String(issue.maximum)} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `has more than ${String(issue.maximum)} items`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}`;
    }
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options;
      // A discriminated union (`sut.type`): the place is the discriminator, its value none of the kinds.
      if (Array.isArray(options) && options.length > 0)
        return `use one of ${options.map((option) => JSON.stringify(option)).join(', ')}`;
      return 'is none of the forms this place takes (see the reference for its shape)';
    }
    case 'invalid_format':
      if ((issue as { format?: string }).format === 'url') return 'expected a URL (http://... or https://...)';
      return undefined;
    default:
      return undefined;
  }
}

function typeWords(type: string): string {
  const words: Record<string, string> = {
    string: 'text',
    number: 'a number',
    int: 'a whole number',
    boolean: 'true or false',
    object: 'a map of keys to values',
    array: 'a list',
    record: 'a map of keys to values',
  };
  return words[type] ?? type;
}

function valueWords(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}
