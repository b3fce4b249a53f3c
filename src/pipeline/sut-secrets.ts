import type { SutConfig } from './question-format.js';
import { expandEnv } from './sut-command.js';

/**
 * Names of environment variables whose values are secrets (API keys, tokens, passwords). PWD and OLDPWD are
 * folders, not passwords.
 */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|(^|_)AUTH($|_)/i;

/** Values shorter than this are left alone: masking "1" or "yes" everywhere would garble every response. */
const MIN_SECRET_LENGTH = 6;

/**
 * The secrets a SUT can see and print, which must not reach a rep's files: the values of secret-named variables of
 * turnkit's environment (a command SUT inherits them), of the question's `sut.env` (after `${NAME}` expansion),
 * and the http SUT's API key.
 */
export function sutSecrets(sut: SutConfig, env: NodeJS.ProcessEnv = process.env): string[] {
  const secrets = new Set<string>();
  const add = (name: string, value: string | undefined): void => {
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH && SECRET_NAME.test(name)) secrets.add(value);
  };
  for (const [name, value] of Object.entries(env)) add(name, value);
  if (sut.type === 'command') for (const [name, value] of Object.entries(expandEnv(sut.env ?? {}))) add(name, value);
  if (sut.type === 'http' && sut.apiKeyEnv) {
    const key = env[sut.apiKeyEnv];
    if (key) secrets.add(key);
  }
  return [...secrets];
}
