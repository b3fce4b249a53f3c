/** Query parameters whose values are credentials (`?api-key=`, `?token=`, `?sig=`). */
const SECRET_PARAM = /key|token|secret|pass|pwd|sig|auth|cred|session|code/i;

/** A URL as it may be shown or written: origin and path, never a user, password or query (tokens live there). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    const shown = parsed.toString();
    // URL adds a "/" to a bare host; show the address as it was written.
    return shown.endsWith('/') && !url.split(/[?#]/)[0]!.endsWith('/') ? shown.slice(0, -1) : shown;
  } catch {
    return '<the base URL>';
  }
}

/**
 * The credentials a URL carries, in the forms they can be printed in (as written, decoded): its user and password,
 * and the values of credential-named query parameters. None when it is not a URL.
 */
export function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  return [
    ...new Set([
      ...printedForms(parsed.username),
      ...printedForms(parsed.password),
      ...queryForms(parsed, SECRET_PARAM),
    ]),
  ];
}

/**
 * The values of a URL's query parameters named by `names`, in every form they can be printed in: as written (a `+`
 * stays a `+`), percent-decoded, and as a form decodes it (`+` as a space, which `searchParams` gives).
 */
export function queryForms(url: URL, names: RegExp): string[] {
  const forms: string[] = [];
  for (const pair of url.search.slice(1).split('&')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const written = pair.slice(at + 1);
    const name = new URLSearchParams(pair.slice(0, at)).keys().next().value ?? '';
    if (!names.test(name)) continue;
    forms.push(...printedForms(written), ...printedForms(new URLSearchParams(`v=${written}`).get('v') ?? ''));
  }
  return [...new Set(forms)];
}

/** A secret as a URL writes it and as decoded (none for an empty one): the forms it can be printed in. */
export function printedForms(written: string): string[] {
  if (written === '') return [];
  try {
    return [...new Set([written, decodeURIComponent(written)])];
  } catch {
    // Not percent-encoding after all ("s3cr%zz"): the value as written is the one to hide.
    return [written];
  }
}

/**
 * The parts of a base URL a client needs apart: the endpoint without user, password or query (so that a path is
 * appended before the query, not after it), the query's parameters, and the user info as a Basic authorization.
 */
export function splitBaseUrl(url: string): { endpoint: string; query: Record<string, string>; basic?: string } {
  const parsed = new URL(url);
  const query = Object.fromEntries(parsed.searchParams);
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  const basic = user || password ? `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` : undefined;
  return { endpoint: shownUrl(url), query, ...(basic ? { basic } : {}) };
}
