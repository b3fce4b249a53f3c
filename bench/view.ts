// npm run bench:view — `turnkit view` on a run of BENCH_VIEW_REPS (default 10,000) reps, hand-made as bench:report
// makes them (two fixtures, responses of about 600 characters, every rep marked). Per round, interleaved:
//  - the whole run as one /api/run from a server that has just started, before its cache is warm: what every request
//    cost before the viewer cached its page data (read every rep file, build, serialise about 2 MB);
//  - the same request again (the cache warm: the files are unchanged);
//  - the first page (/api/run with from=0&to=25), as the viewer's page asks for it;
//  - with a headless Chromium (when there is one: /usr/bin/chromium or TURNKIT_CHROMIUM), the page opened on the
//    run: time to its first screen (the report and the first 25 reps drawn) and to every rep loaded, from a new
//    server whose start-up read of the run has finished (a person opens the URL after it is printed) and from one
//    just started. Goal: first screen within 300 ms;
//  - the marker (#mark=0) in the same Chromium: time to its first screen (the rep to mark, its mark bar and progress
//    drawn: data-ready) from a server whose start-up read has finished, against the whole /api/run cold (what the
//    marker asked for before it paged), and the marker's own request alone (its summary with its first page of reps).
// Printed: medians and ranges over BENCH_ROUNDS (default 3), and the ratios first page / one whole payload cold and
// first screen / one whole payload cold. The page script is dist/client/page-script.js: `npm run build` first.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeMarkRun } from '../test/helpers/mark-run.js';
import { startViewServer, type ViewServer } from '../src/view/server/view-server.js';

const REPS = Number(process.env.BENCH_VIEW_REPS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CHROMIUM = process.env.TURNKIT_CHROMIUM || '/usr/bin/chromium';
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const range = (values: number[], digits = 0): string =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;
const sentence =
  'You ride the lift up from engineering to the mess hall on deck 2, where Dr. Hale is nursing a cup of tea. ';

async function timedGet(server: ViewServer, path: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${server.port}${path}&token=${server.token}`);
  const body = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${body}`);
  return { ms: performance.now() - started, bytes: Buffer.byteLength(body) };
}

const root = await mkdtemp(join(tmpdir(), 'turnkit-bench-view-'));
try {
  const per = REPS / 2;
  const responses = Array.from({ length: per }, (_, i) => `${sentence.repeat(5)}(rep ${i + 1})`);
  const dir = await makeMarkRun({
    dir: join(root, 'run'),
    fixtures: [
      { name: 'base', reps: responses },
      { name: 'base-fixed', reps: responses },
    ],
  });
  const rows = [
    'fixture,rep,mark,note',
    ...['base', 'base-fixed'].flatMap((fixture) =>
      responses.map((_, i) => `${fixture},${i + 1},${i % 3 === 0 ? 'fail' : 'pass'},`),
    ),
  ];
  await writeFile(join(dir, 'marks.csv'), `${rows.join('\n')}\n`);
  const open = (start = startViewServer): Promise<ViewServer> => start({ runs: [dir], cwd: root, strict: true });
  // BENCH_VIEW_BASE: a checkout of an earlier commit (its page script built there: node scripts/build-client.mjs),
  // whose marker is measured in the same rounds, interleaved with this one's.
  const base = process.env.BENCH_VIEW_BASE;
  const baseStart: typeof startViewServer | undefined = base
    ? (await import(join(base, 'src', 'view', 'server', 'view-server.ts'))).startViewServer
    : undefined;

  let browser: { newPage: () => Promise<import('playwright-core').Page>; close: () => Promise<void> } | undefined;
  if (existsSync(CHROMIUM)) {
    const { chromium } = await import('playwright-core');
    const launched = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
    browser = { newPage: () => launched.newPage(), close: () => launched.close() };
  }
  // Opens the page on the run: ms to its first screen and to every rep loaded.
  const openPage = async (server: ViewServer): Promise<{ first: number; all: number }> => {
    const page = await browser!.newPage();
    try {
      const started = performance.now();
      await page.goto(`${server.url}#run=0`);
      await page.waitForSelector('body[data-first-screen="true"]', { timeout: 120_000 });
      const first = performance.now() - started;
      await page.waitForSelector('body[data-ready="true"][data-view="run"]', { timeout: 120_000 });
      return { first, all: performance.now() - started };
    } finally {
      await page.close();
    }
  };

  // Opens the marker on the run: ms to its first screen (the rep to mark drawn), and where that time went, from the
  // page's own clock (0 = navigation start): the HTML's first and last byte, the marker's first request issued (the
  // script has run by then) and answered, and data-ready.
  const openMarker = async (server: ViewServer): Promise<{ ms: number; steps: Record<string, number> }> => {
    const page = await browser!.newPage();
    try {
      // Page-side code as text: this file is type-checked for Node, without the DOM's names.
      await page.addInitScript(`new MutationObserver(() => {
        if (window.readyAt === undefined && document.body?.getAttribute('data-ready') === 'true')
          window.readyAt = performance.now();
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });`);
      const started = performance.now();
      await page.goto(`${server.url}#mark=0`);
      await page.waitForSelector('body[data-ready="true"][data-view="marker"]', { timeout: 120_000 });
      const ms = performance.now() - started;
      const steps = await page.evaluate<Record<string, number>>(`(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const api = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/api/marker?'));
        return {
          htmlFirstByte: nav.responseStart,
          htmlLastByte: nav.responseEnd,
          htmlKB: nav.decodedBodySize / 1e3,
          requestIssued: api ? api.startTime : NaN,
          requestAnswered: api ? api.responseEnd : NaN,
          requestKB: api ? api.decodedBodySize / 1e3 : NaN,
          ready: window.readyAt ?? NaN,
        };
      })()`);
      return { ms, steps };
    } finally {
      await page.close();
    }
  };

  const figures = {
    markerApi: [] as number[],
    markerScreen: [] as number[],
    markerSteps: [] as Record<string, number>[],
    baseMarkerScreen: [] as number[],
    baseMarkerSteps: [] as Record<string, number>[],
    cold: [] as number[],
    warm: [] as number[],
    page: [] as number[],
    firstScreen: [] as number[],
    allLoaded: [] as number[],
    firstScreenAtStart: [] as number[],
  };
  let bytes = { whole: 0, page: 0, marker: 0 };
  console.log(`view benchmark: a run of ${REPS} reps, ${ROUNDS} rounds`);
  for (let round = 0; round < ROUNDS; round++) {
    // The cold request: a server just started, before its start-up read of the run; the old viewer paid this each time.
    {
      const server = await open();
      try {
        const cold = await timedGet(server, '/api/run?run=0');
        const warm = await timedGet(server, '/api/run?run=0');
        const page = await timedGet(server, '/api/run?run=0&from=0&to=25');
        figures.cold.push(cold.ms);
        figures.warm.push(warm.ms);
        figures.page.push(page.ms);
        // The marker's own requests, as its page makes them: the summary, then the page of reps it opens on.
        const marker = await timedGet(server, '/api/marker?run=0&size=50').catch(() => undefined);
        if (marker) figures.markerApi.push(marker.ms);
        bytes = { whole: cold.bytes, page: page.bytes, marker: marker?.bytes ?? 0 };
      } finally {
        await server.close();
      }
    }
    if (browser) {
      const server = await open();
      try {
        await server.runs[0]!.runView();
        const seen = await openPage(server);
        figures.firstScreen.push(seen.first);
        figures.allLoaded.push(seen.all);
        const marker = await openMarker(server);
        figures.markerScreen.push(marker.ms);
        figures.markerSteps.push(marker.steps);
      } finally {
        await server.close();
      }
      if (baseStart) {
        const earlier = await open(baseStart);
        try {
          await earlier.runs[0]!.runView();
          const marker = await openMarker(earlier);
          figures.baseMarkerScreen.push(marker.ms);
          figures.baseMarkerSteps.push(marker.steps);
        } finally {
          await earlier.close();
        }
      }
      const fresh = await open();
      try {
        figures.firstScreenAtStart.push((await openPage(fresh)).first);
      } finally {
        await fresh.close();
      }
    }
  }
  await browser?.close();
  const ratio = (a: number[], b: number[]): string =>
    range(
      a.map((value, i) => value / b[i]!),
      2,
    );
  console.log(
    `  one whole /api/run, cold (every request before the cache): ${range(figures.cold)} ms, ${(bytes.whole / 1e6).toFixed(1)} MB`,
  );
  console.log(`  the same again, cached (files unchanged): ${range(figures.warm)} ms`);
  if (figures.markerApi.length > 0)
    console.log(
      `  the marker's summary with its first page of reps (50): ${range(figures.markerApi, 1)} ms, ${(bytes.marker / 1e3).toFixed(0)} KB; / whole cold = ${ratio(figures.markerApi, figures.cold)}x`,
    );
  console.log(
    `  the first page (25 reps): ${range(figures.page, 1)} ms, ${(bytes.page / 1e3).toFixed(0)} KB; first page / whole cold = ${ratio(figures.page, figures.cold)}x`,
  );
  if (browser) {
    console.log(
      `  the page in Chromium, first screen: ${range(figures.firstScreen)} ms (goal: within 300 ms) = ${ratio(figures.firstScreen, figures.cold)}x one whole payload cold; every rep loaded ${range(figures.allLoaded)} ms`,
    );
    console.log(
      `  opened the moment the server started (its read of the run not done): first screen ${range(figures.firstScreenAtStart)} ms`,
    );
    console.log(
      `  the marker in Chromium, first screen: ${range(figures.markerScreen)} ms (goal: within 300 ms) = ${ratio(figures.markerScreen, figures.cold)}x one whole payload cold`,
    );
    const stepsOf = (all: Record<string, number>[]): string =>
      Object.keys(all[0] ?? {})
        .map((step) => `${step} ${range(all.map((s) => s[step]!))}`)
        .join(', ');
    console.log(`  the marker's first screen step by step (ms from navigation, KB): ${stepsOf(figures.markerSteps)}`);
    if (baseStart) {
      console.log(
        `  the marker of ${base} in the same rounds, first screen: ${range(figures.baseMarkerScreen)} ms; this one / that one = ${ratio(figures.markerScreen, figures.baseMarkerScreen)}x`,
      );
      console.log(`  its first screen step by step: ${stepsOf(figures.baseMarkerSteps)}`);
    }
  } else console.log(`  no Chromium at ${CHROMIUM}: the page itself not measured`);
} finally {
  await rm(root, { recursive: true, force: true });
}
