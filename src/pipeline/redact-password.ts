/**
 * Removes a database URL's password from every string of a value (a rep record), as written in the URL
 * (percent-encoded) and as decoded: a SUT that prints its environment must not put it into the run directory.
 */
export function withoutPassword<T>(record: T, databaseUrl: string): T {
  let encoded = '';
  try {
    encoded = new URL(databaseUrl).password;
  } catch {
    return record;
  }
  if (encoded === '') return record;
  const forms = [...new Set([encoded, decodeURIComponent(encoded)])].sort((a, b) => b.length - a.length);
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') return forms.reduce((text, form) => text.split(form).join('***'), value);
    if (Array.isArray(value)) return value.map(scrub);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrub(inner)]));
    return value;
  };
  return scrub(record) as T;
}

