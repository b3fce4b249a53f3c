import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { TurnkitError } from '../../errors.js';
import { shownPath } from '../../util/shown-path.js';
import { renderPage } from '../html-page.js';
import { MARKER_PAGE } from '../view-data.js';
import { summaryHtml } from './summary-html.js';
import { ViewRun, type ViewMarking } from './view-run.js';
import { routeRequest, sendError } from './view-routes.js';

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

  const routes = { runs, blind: options.blind === true, page, secrets };
  const server = createServer((request, response) => {
    routeRequest(routes, request, response).catch((error: unknown) => sendError(response, error));
  });

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
  // The marker's summary first: it takes milliseconds, the page data of 10,000 reps a second or more.
  for (const run of runs) run.warmMarker(MARKER_PAGE).catch(() => {});
  if (!options.blind) for (const run of runs) run.runView().catch(() => {});
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
    await closeRuns();
  };
  return { url: `http://127.0.0.1:${port}/?token=${token}`, port, token, runs, close, [Symbol.asyncDispose]: close };
}
