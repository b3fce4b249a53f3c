import type { SutConfig } from '../pipeline/question-format.js';
import { expandEnv } from './sut-command.js';
import { passwordForms } from '../util/redact-password.js';
import { urlSecrets } from '../util/url-secrets.js';

/**
 * Names of environment variables whose values are secrets (API keys, tokens, passwords, personal access tokens, DSNs,
 * authorization headers, JWTs, webhooks, cookies).
 */
const SECRET_NAME =
  /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|(^|_)PASS($|_)|_PWD$|(^|_)AUTH($|_)|AUTHORI[SZ]ATION|(^|_)PAT($|_)|DSN|JWT|WEBHOOK|COOKIE|(^|_)SIG(NATURE)?($|_)|BEARER/i;

/** Names that match the above and hold no secret: a socket's path (SSH_AUTH_SOCK), the shell's folders. */
const NOT_SECRET_NAME = /_SOCK$|^(OLD)?PWD$/i;

/** Values shorter than this are left alone: masking "1" or "yes" everywhere would garble every response. */
const MIN_SECRET_LENGTH = 6;

/**
 * The secrets a SUT can see and print, which must not reach a rep's files: the values of secret-named variables of
 * turnkit's environment (a command SUT inherits them), of the question's `sut.env` (after `${NAME}` expansion),
 * and the http SUT's API key and its base URL's credentials (user info, `?api-key=`).
 */
export function sutSecrets(sut: SutConfig, env: Readonly<Record<string, string | undefined>>): string[] {
  const secrets = new Set<string>();
  const add = (name: string, value: string | undefined): void => {
    if (value === undefined) return;
    // A URL with credentials in any variable (REDIS_URL=redis://:pw@host, SENTRY_DSN=https://key@host/1,
    // ...?token=): its password, its user and its credential-named query values.
    if (/^[a-z][\w+.-]*:\/\//i.test(value)) {
      for (const form of passwordForms(value)) secrets.add(form);
      for (const form of urlSecrets(value)) if (form.length >= MIN_SECRET_LENGTH) secrets.add(form);
    }
    if (value.length >= MIN_SECRET_LENGTH && isSecretName(name)) secrets.add(value);
  };
  for (const [name, value] of Object.entries(env)) add(name, value);
  if (sut.type === 'command')
    for (const [name, value] of Object.entries(expandEnv(sut.env ?? {}, env))) add(name, value);
  if (sut.type === 'http') for (const secret of urlSecrets(sut.baseUrl)) secrets.add(secret);
  if (sut.type === 'http' && sut.apiKeyEnv) {
    const key = env[sut.apiKeyEnv];
    if (key) secrets.add(key);
  }
  return [...secrets];
}

/**
 * The environment a SUT inherits from turnkit's: every variable but the secret-named ones (the scrub key, the judges'
 * and the SUT's own API keys, tokens, passwords), which a SUT that needs one is given by name in its `sut.env`
 * (`OPENAI_API_KEY: "${OPENAI_API_KEY}"`). What a SUT cannot see, it cannot print into a rep.
 */
export function inheritedEnv(
  env: Readonly<Record<string, string | undefined>> | undefined,
): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env ?? {}).filter(([name]) => !isSecretName(name)));
}

/** Whether a variable's name says its value is a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_SECRET_NAME.test(name);
}
