import type { SutConfig } from '../question/question-format.js';
import { sutKind } from './sut-kinds.js';
import { isSecretName } from './secret-names.js';
import { printedForms, urlSecrets } from '../util/url-secrets.js';

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
      // Its password whatever its length (a short one still opens the service); the rest when long enough.
      for (const form of userPassword(value)) secrets.add(form);
      for (const form of urlSecrets(value)) if (form.length >= MIN_SECRET_LENGTH) secrets.add(form);
    }
    if (value.length >= MIN_SECRET_LENGTH && isSecretName(name)) secrets.add(value);
  };
  for (const [name, value] of Object.entries(env)) add(name, value);
  // The kind says what else its SUT sees: variables it is given, secrets whatever their name.
  const own = sutKind(sut).secrets?.(sut, env) ?? {};
  for (const [name, value] of Object.entries(own.variables ?? {})) add(name, value);
  for (const secret of own.values ?? []) secrets.add(secret);
  return [...secrets];
}

// The password of a URL's user info, in its printed forms; none when it is not a URL.
function userPassword(url: string): string[] {
  try {
    return printedForms(new URL(url).password);
  } catch {
    return [];
  }
}
