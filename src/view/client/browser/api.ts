import type { MarkerSummary, PackedMarkerReply, PageData, RunView } from '../../view-data.js';

/*
 * The viewer's talk with its server: GETs carry the URL's token as a query parameter, POSTs carry it and the page's
 * CSRF token as headers; an answer that is not ok throws its error message.
 */

/** The viewer's page data (see view-data.ts). */
export type ViewData = Extract<PageData, { mode: 'view' }>;

/** /api/marker as the page keeps it: the summary unpacked (marker-summary.ts). */
export type MarkerReply = Omit<PackedMarkerReply, 'marker'> & { marker: MarkerSummary };

/** /api/compare: two runs, their comparison, or why they cannot be compared. */
export interface CompareReply {
  a: RunView;
  b: RunView;
  comparison: RunView['comparison'];
  problem: string | null;
}

async function answer<T>(res: Response): Promise<T> {
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

/** GET path from the viewer's server. */
export async function api<T>(data: ViewData, path: string): Promise<T> {
  const url = `${path + (path.indexOf('?') >= 0 ? '&' : '?')}token=${encodeURIComponent(data.token)}`;
  return answer<T>(await fetch(url, { cache: 'no-store' }));
}

/** POST value as JSON to the viewer's server. */
export async function post<T>(data: ViewData, path: string, value: unknown): Promise<T> {
  const headers = { 'Content-Type': 'application/json', 'X-Turnkit-Token': data.token, 'X-Turnkit-Csrf': data.csrf };
  return answer<T>(await fetch(path, { method: 'POST', cache: 'no-store', headers, body: JSON.stringify(value) }));
}

/** An error's message as the page shows it. */
export function errorText(error: unknown): string {
  return String((error as Error | undefined)?.message || error);
}
