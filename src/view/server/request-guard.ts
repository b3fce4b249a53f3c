import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The secrets a request must show: the token of the printed URL, and for a change the page's CSRF token. */
export interface GuardSecrets {
  token: string;
  csrf: string;
  port: () => number;
}

/** Whether two secrets are equal, in time that does not depend on where they differ. */
function sameSecret(given: string | undefined | null, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Why a request is refused, or undefined when it may proceed. Every request names this server by its address (a page
 * of another site reaching it through a DNS name it rebinds to 127.0.0.1 sends that name) and carries the token;
 * a change is a POST from this server's own page: same origin, the CSRF header, JSON.
 */
export function refusal(request: IncomingMessage, url: URL, secrets: GuardSecrets): string | undefined {
  const port = secrets.port();
  const host = request.headers.host ?? '';
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return 'unknown Host';
  const token = request.method === 'POST' ? header(request, 'x-turnkit-token') : url.searchParams.get('token');
  if (!sameSecret(token, secrets.token)) return 'the token is missing or wrong: open the URL turnkit view printed';
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  if (request.method !== 'POST') return `${request.method} is not allowed`;
  const origin = header(request, 'origin');
  if (origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`)
    return "a change must come from the viewer's own page (Origin)";
  const site = header(request, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin')
    return "a change must come from the viewer's own page (Sec-Fetch-Site)";
  if (!sameSecret(header(request, 'x-turnkit-csrf'), secrets.csrf))
    return "the page's CSRF token is missing or wrong: reload the page";
  if (!(header(request, 'content-type') ?? '').startsWith('application/json'))
    return 'a change is sent as application/json';
  return undefined;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
