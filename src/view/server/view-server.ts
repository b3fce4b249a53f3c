import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { TurnkitError } from '../../errors.js';
import { compareReports } from '../../report/compare-runs.js';
import { shownPath } from '../../util/shown-path.js';
import { contentSecurityPolicy, renderPage } from '../html-page.js';
import { refusal } from './request-guard.js';
import { summaryHtml } from './summary-html.js';
import { ViewRun, type ViewMarking } from './view-run.js';

/** Options of `turnkit view`. */
export interface ViewServerOptions extends ViewMarking {
  /** The run directories to serve (at least one). */
  runs: readonly string[];
  /** Take each run's marks file at once, so that one another marker holds is refused before the server starts. */
  strict?: boolean | undefined;
  /** 0 or absent: a free port. */
  port?: number | undefined;
  cwd?: string | undefined;
  /** The URL's token (default: 32 random bytes); tests give their own only to try a wrong one. */
  token?: string | undefined;
}

/** A running viewer: where it listens and how to stop it. */
export interface ViewServer {
  url: string;
  port: number;
  token: string;
  runs: readonly ViewRun[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
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

/**
 * Starts the local viewer on 127.0.0.1 (never another interface): the runs' page, their data, their files (and no
 * other), and marking through the terminal marker's MarkingSession. Every request needs the token of the URL;
 * a mark needs a same-origin POST with the page's CSRF header as well.
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const cwd = options.cwd ?? process.cwd();
  if (options.runs.length === 0) throw new TurnkitError('USAGE', 'turnkit view: no run to show');
  const runs: ViewRun[] = [];
  for (const [id, dir] of options.runs.entries()) runs.push(await ViewRun.open(id, resolve(cwd, dir), options, cwd));
  const closeRuns = async (): Promise<void> => {
    for (const run of runs) await run.close();
  };
  try {
    if (options.strict) for (const run of runs) await run.takeMarks(true);
  } catch (error) {
    await closeRuns();
    throw error;
  }
  const token = options.token ?? randomBytes(32).toString('base64url');
  const csrf = randomBytes(32).toString('base64url');
  let port = 0;
  const secrets = { token, csrf, port: () => port };
  const pageData = (): Parameters<typeof renderPage>[0] => ({
    mode: 'view',
    token,
    csrf,
    blind: options.blind === true,
    runs: runs.map((run) => ({ id: run.id, dir: shownPath(run.dir), question: run.question, stamp: run.stamp })),
  });
  const title = options.blind ? 'turnkit view: blind re-mark' : 'turnkit view';
  // The first response holds the runs' summary tables, read now (a blind re-mark shows no marks: none there).
  const page = async (): Promise<string> => {
    if (options.blind) return renderPage(pageData(), title);
    const reports = [];
    // The runs' cached page data (read as the server starts): a 10,000-rep run is not read again for the page.
    for (const run of runs) {
      const view = await run.runView().catch(() => undefined);
      if (view) reports.push(view.report);
    }
    return renderPage(pageData(), title, summaryHtml(reports));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const status =
        error instanceof TurnkitError
          ? (({ EXISTS: 409, NOT_FOUND: 404 } as Record<string, number>)[error.code] ?? 400)
          : 500;
      send(response, status, { error: error instanceof TurnkitError ? error.message : 'internal error' });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const refused = refusal(request, url, secrets);
    if (refused) return send(response, 403, { error: `forbidden: ${refused}` });
    const runOf = (value: unknown): ViewRun => {
      const run = runs[Number(value)];
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
      return void response.end(await page());
    }
    // With from and to, a page of the run's reps and no marker data: the viewer shows a large run's first screen from
    // the first page and fetches the rest in pages behind it, instead of one payload of every rep (7 MB at 10,000).
    if (url.pathname === '/api/run') {
      const run = runOf(url.searchParams.get('run'));
      const range = repRange(url);
      if (!range) return send(response, 200, await run.data());
      if (options.blind) return send(response, 403, { error: 'forbidden: a blind re-mark shows no other marks' });
      return send(response, 200, await run.page(...range));
    }
    if (url.pathname === '/api/reps') {
      if (options.blind) return send(response, 403, { error: 'forbidden: a blind re-mark shows no other marks' });
      const run = runOf(url.searchParams.get('run'));
      const [view, version] = [await run.runView(), await run.version()];
      const [from, to] = repRange(url) ?? [0, view.reps.length];
      return send(response, 200, { reps: view.reps.slice(from, to), repsTotal: view.reps.length, version });
    }
    if (url.pathname === '/api/version')
      return send(response, 200, { version: await runOf(url.searchParams.get('run')).version() });
    if (url.pathname === '/api/compare') {
      if (options.blind) return send(response, 403, { error: 'forbidden: a blind re-mark shows no other marks' });
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
    const file = /^\/files\/(\d+)\/(.+)$/.exec(url.pathname);
    if (file) {
      if (options.blind) return send(response, 403, { error: 'forbidden: a blind re-mark shows no other marks' });
      return serveRunFile(response, runOf(file[1]), file[2]!);
    }
    return send(response, 404, { error: 'not found' });
  }

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      rejectListen(
        error.code === 'EADDRINUSE'
          ? new TurnkitError(
              'BAD_INPUT',
              `--port ${options.port}: in use by another program; choose another, or leave --port out for a free one`,
            )
          : error,
      );
    });
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  }).catch(async (error) => {
    await closeRuns();
    throw error;
  });
  port = (server.address() as AddressInfo).port;
  // The runs' page data is read while the person opens the URL: the first screen of a large run need not wait for it.
  if (!options.blind) for (const run of runs) run.runView().catch(() => {});
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
    await closeRuns();
  };
  return { url: `http://127.0.0.1:${port}/?token=${token}`, port, token, runs, close, [Symbol.asyncDispose]: close };
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
  if (turnMark) {
    const parsed = turnMarkBody.safeParse(json);
    if (!parsed.success)
      return send(response, 400, { error: `bad turn mark: ${parsed.error.issues[0]?.message ?? 'invalid'}` });
    const { run, position, turn, mark } = parsed.data;
    return send(response, 200, { ok: true, ...(await runOf(run).turnMark(position, turn, mark)) });
  }
  const parsed = markBody.safeParse(json);
  if (!parsed.success)
    return send(response, 400, { error: `bad mark: ${parsed.error.issues[0]?.message ?? 'invalid'}` });
  const { run, position, mark, note } = parsed.data;
  // A note is one line in marks.csv's spirit, as the terminal marker keeps it.
  const result = await runOf(run).mark(position, mark, note?.replace(/[\r\n]+/g, ' '));
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
