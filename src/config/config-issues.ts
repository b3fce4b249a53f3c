import { TurnkitError } from '../errors.js';
import { safeParseInWords } from '../util/zod-messages.js';
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
  const result = safeParseInWords(configSchema, value);
  if (result.success) return result.data;
  const locate = text === undefined ? () => undefined : json ? jsonLocator(text) : sourceLocator(text);
  const problems = issueLines(result.error.issues, { value, text, shown, locate }, configSchema);
  throw new TurnkitError('BAD_INPUT', problems[0]!, problems);
}
