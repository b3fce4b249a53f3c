import type { MarkerPage, MarkerSummary, PackedMarkerSummary, PageData, RunView } from '../../view-data.js';

/*
 * The viewer's talk with its server: GETs carry the URL's token as a query parameter, POSTs carry it and the page's
 * CSRF token as headers; an answer that is not ok throws its error message.
 */

/** The viewer's page data (see view-data.ts). */
export type ViewData = Extract<PageData, { mode: 'view' }>;

/**
 * /api/marker: what the marker shows before any rep (every position's marks), the run's version, and with `size` the
 * page of reps it opens on.
 */
export interface MarkerReply {
  marker: MarkerSummary;
  version: string;
  page?: MarkerPage;
}

/** /api/marker as it comes: the summary packed (the page unpacks it: see marker-summary.ts). */
export type PackedMarkerReply = Omit<MarkerReply, 'marker'> & { marker: PackedMarkerSummary };

/** /api/marker-reps: a page of the marker's reps by position, and the version of the run it was read at. */
export interface MarkerPageReply {
  page: MarkerPage;
  version: string;
}

/** /api/run with from and to: a page of the run's reps with its report, and how many reps there are in all. */
export interface RunPage {
  run: RunView;
  markerFile: string;
  version: string;
  repsTotal: number;
}

/** /api/compare: two runs, their comparison, or why they cannot be compared. */
export interface CompareReply {
  a: RunView;
  b: RunView;
  comparison: RunView['comparison'];
  problem: string | null;
}

/** /api/mark and /api/turn-mark: the position's marks once on disk, the counts, whether the file was merged first. */
export type { MarkReply } from '../../view-data.js';

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
