import { passwordForms, withoutSecrets } from '../util/redact-password.js';

/** Removes the password from a connection URL so it can be printed or written to a file. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '';
    // libpq also takes the password (and a client key's passphrase) as query parameters.
    for (const name of ['password', 'sslpassword'])
      if (parsed.searchParams.has(name)) parsed.searchParams.set(name, '***');
    // URL keeps "user:@host" after clearing; drop the dangling colon.
    return parsed.toString().replace(/:@/, '@');
  } catch {
    // Not a URL we can parse: never echo it, it may hold a secret.
    return '<unparseable database URL>';
  }
}

/** Replaces every form of the URL's password (and libpq's password parameters) in a message with "***". */
export function scrubSecret(message: string, url: string | undefined): string {
  return withoutSecrets(message, passwordForms(url ?? ''));
}
