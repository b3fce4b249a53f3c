import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { TurnkitError } from '../../errors.js';
import { safeParseInWords } from '../../util/zod-messages.js';
import { compareReports } from '../../report/compare-runs.js';
import { contentSecurityPolicy } from '../html-page.js';
import { type GuardSecrets, refusal } from './request-guard.js';
import type { ViewRun } from './view-run.js';

/** What the viewer's routes answer from: its runs, whether it is a blind re-mark, its first page, its secrets. */
export interface ViewRoutes {
  runs: readonly ViewRun[];
  blind: boolean;
  /** The first response: the page with the runs' summary tables. */
  page(): Promise<string>;
  secrets: GuardSecrets;
}

const markBody = z
  .object({
    run: z.number().int().nonnegative(),
    position: z.number().int().nonnegative(),
    mark: z.enum(['pass', 'fail', 'na', '']),
    note: z.string().max(10_000).optional(),
  })
  .strict();

const turnMarkBody = z
  .object({
    run: z.number().int().nonnegative(),
    position: z.number().int().nonnegative(),
    turn: z.number().int().nonnegative(),
    mark: z.enum(['pass', 'fail', 'na', '']),
  })
  .strict();

// A blind re-mark shows the reps to mark and nothing another marker said of them.
const BLIND_REFUSAL = { error: 'forbidden: a blind re-mark shows no other marks' };

/**
 * One request to the viewer: refused without the URL's token (and a mark without the page's CSRF header), else a
 * mark, the page, or a GET of the API or of a run's file.
 */
export async function routeRequest(
  routes: ViewRoutes,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const refused = refusal(request, url, routes.secrets);
  if (refused) return send(response, 403, { error: `forbidden: ${refused}` });
  const runOf = (value: unknown): ViewRun => {
    const run = routes.runs[Number(value)];
    if (!run || !/^\d+$/.test(String(value))) throw new TurnkitError('NOT_FOUND', `no run ${String(value)}`);
    return run;
  };
  if (request.method === 'POST' && (url.pathname === '/api/mark' || url.pathname === '/api/turn-mark'))
    return postMark(request, response, url.pathname === '/api/turn-mark', runOf);
  if (request.method !== 'GET') return send(response, 404, { error: 'not found' });
  if (url.pathname === '/') {
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `${contentSecurityPolicy('view')}; frame-ancestors 'none'`,
    });
    return void response.end(await routes.page());
  }
  const file = /^\/files\/(\d+)\/(.+)$/.exec(url.pathname);
  if (file) {
    if (routes.blind) return send(response, 403, BLIND_REFUSAL);
    return serveRunFile(response, runOf(file[1]), file[2]!);
  }
  return getApi(routes.blind, url, response, runOf);
}

/** A failed request's answer: a turnkit error's message (409 for EXISTS, 404 for NOT_FOUND, else 400), or 500. */
export function sendError(response: ServerResponse, error: unknown): void {
  const status =
    error instanceof TurnkitError
      ? (({ EXISTS: 409, NOT_FOUND: 404 } as Record<string, number>)[error.code] ?? 400)
      : 500;
  send(response, status, { error: error instanceof TurnkitError ? error.message : 'internal error' });
}

/** `GET /api/...`: a run's data or a page of its reps, its version, two runs compared; anything else is 404. */
async function getApi(
  blind: boolean,
  url: URL,
  response: ServerResponse,
  runOf: (value: unknown) => ViewRun,
): Promise<void> {
  const run = (): ViewRun => runOf(url.searchParams.get('run'));
  // With from and to, a page of the run's reps and no marker data: the viewer shows a large run's first screen from
  // the first page and fetches the rest in pages behind it, instead of one payload of every rep (7 MB at 10,000).
  if (url.pathname === '/api/run') {
    const shown = run();
    const range = repRange(url);
    if (!range) return send(response, 200, await shown.data());
    if (blind) return send(response, 403, BLIND_REFUSAL);
    return send(response, 200, await shown.page(...range));
  }
  if (url.pathname === '/api/reps') {
    if (blind) return send(response, 403, BLIND_REFUSAL);
    const shown = run();
    const [view, version] = [await shown.runView(), await shown.version()];
    const [from, to] = repRange(url) ?? [0, view.reps.length];
    return send(response, 200, { reps: view.reps.slice(from, to), repsTotal: view.reps.length, version });
  }
  // The marker's own: its summary (every position's marks), then its reps a page at a time as it moves; blind, the
  // same masked reps the whole payload holds, so these are open to a blind re-mark as /api/run is.
  if (url.pathname === '/api/marker') {
    const shown = run();
    const size = wholeParam(url, 'size');
    if (size === 0) throw new TurnkitError('BAD_INPUT', 'bad page of reps: size must be at least 1');
    const at = wholeParam(url, 'at');
    if (at !== undefined && size === undefined) throw new TurnkitError('BAD_INPUT', 'bad page of reps: at needs size');
    return send(response, 200, await shown.markerSummary(size === undefined ? undefined : { size, at }));
  }
  if (url.pathname === '/api/marker-reps') {
    const shown = run();
    const range = repRange(url);
    if (!range) throw new TurnkitError('BAD_INPUT', 'bad page of reps: from and to are both needed');
    return send(response, 200, await shown.markerPage(...range));
  }
  if (url.pathname === '/api/version') return send(response, 200, { version: await run().version() });
  if (url.pathname === '/api/compare') {
    if (blind) return send(response, 403, BLIND_REFUSAL);
    const a = await runOf(url.searchParams.get('a')).data();
    const b = await runOf(url.searchParams.get('b')).data();
    let comparison = null;
    let problem = null;
    try {
      comparison = compareReports(a.run!.report, b.run!.report);
    } catch (error) {
      problem = error instanceof TurnkitError ? error.message : String(error);
    }
    return send(response, 200, { a: a.run, b: b.run, comparison, problem });
  }
  return send(response, 404, { error: 'not found' });
}

/** The `from` and `to` of a request for a page of reps (both whole numbers), or undefined for every rep. */
function repRange(url: URL): [number, number] | undefined {
  const from = url.searchParams.get('from');
  const to = url.searchParams.get('to');
  if (from === null && to === null) return undefined;
  if (!/^\d{1,9}$/.test(from ?? '') || !/^\d{1,9}$/.test(to ?? ''))
    throw new TurnkitError('BAD_INPUT', 'bad page of reps: from and to must both be whole numbers');
  return [Number(from), Number(to)];
}

/** A query parameter that is a whole number, or undefined when absent; anything else is refused. */
function wholeParam(url: URL, name: string): number | undefined {
  const value = url.searchParams.get(name);
  if (value === null) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw new TurnkitError('BAD_INPUT', `bad page of reps: ${name} must be a whole number`);
  return Number(value);
}

/** `POST /api/mark` and `/api/turn-mark`: a mark (or a turn's mark) checked, then saved in the run's marks file. */
async function postMark(
  request: IncomingMessage,
  response: ServerResponse,
  turnMark: boolean,
  runOf: (value: unknown) => ViewRun,
): Promise<void> {
  let json: unknown;
  try {
    json = JSON.parse(await body(request));
  } catch {
    return send(response, 400, { error: 'bad mark: not JSON' });
  }
  const parsed = safeParseInWords(turnMark ? turnMarkBody : markBody, json);
  if (!parsed.success)
    return send(response, 400, {
      error: `bad ${turnMark ? 'turn mark' : 'mark'}: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    });
  const { run, position, mark } = parsed.data;
  const result =
    'turn' in parsed.data
      ? await runOf(run).turnMark(position, parsed.data.turn, mark)
      : // A note is one line in marks.csv's spirit, as the terminal marker keeps it.
        await runOf(run).mark(position, mark, parsed.data.note?.replace(/[\r\n]+/g, ' '));
  return send(response, 200, { ok: true, ...result });
}

/** `GET /files/RUN/PATH`: a file of the run (none outside it), as plain text in a sandbox. */
async function serveRunFile(response: ServerResponse, run: ViewRun, encoded: string): Promise<void> {
  let relative: string;
  try {
    relative = decodeURIComponent(encoded);
  } catch {
    return send(response, 403, { error: 'forbidden: not a file of this run' });
  }
  const path = await run.fileOf(relative);
  if (!path) return send(response, 403, { error: 'forbidden: not a file of this run' });
  // Every file as plain text in a sandbox: a response saved as .html is still text here.
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  });
  createReadStream(path).pipe(response);
}

const SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function send(response: ServerResponse, status: number, value: unknown): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(value));
}

async function body(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) {
    text += chunk;
    if (text.length > 100_000) throw new TurnkitError('BAD_INPUT', 'request too large');
  }
  return text;
}
