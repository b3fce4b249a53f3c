import { printedForms, queryForms } from './url-secrets.js';

/**
 * The forms a database URL's password can take in text (as written in the URL, percent-encoded, and decoded), and
 * those of libpq's `password` and `sslpassword` query parameters. None when the URL has none or is not a URL.
 */
export function passwordForms(databaseUrl: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(databaseUrl);
  } catch {
    return [];
  }
  return [...new Set([...printedForms(parsed.password), ...queryForms(parsed, /^(ssl)?password$/)])];
}

/**
 * Replaces every secret by `***` in every string of a value (a rep record), nested too; the input is left as it
 * was, and returned as is when there is no secret to remove. Longer secrets go first, so one that contains
 * another is removed whole.
 */
export function withoutSecrets<T>(record: T, secrets: readonly string[]): T {
  // As printed, and as it reads inside a JSON string or a URL.
  const written = secrets
    .filter((secret) => secret !== '')
    .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  const forms = [...new Set(written)].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return record;
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') return forms.reduce((text, form) => text.split(form).join('***'), value);
    if (Array.isArray(value)) return value.map(scrub);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrub(inner)]));
    return value;
  };
  return scrub(record) as T;
}

/**
 * Removes a database URL's password from every string of a value (a rep record), as written in the URL
 * (percent-encoded) and as decoded: a SUT that prints its environment must not put it into the run directory.
 */
export function withoutPassword<T>(record: T, databaseUrl: string): T {
  return withoutSecrets(record, passwordForms(databaseUrl));
}
