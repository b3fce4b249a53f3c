// npm run bench:report — `turnkit report --html` against `turnkit report --json` on hand-made runs of 100, 1,000
// and 10,000 reps (two fixtures, responses of about 600 characters, every rep marked): the time of each, in this
// process, as the ratio html / json (goal: within 3x), and the HTML file's size per rep at each size (it should
// stay flat: the page grows linearly with the responses, nothing shared is copied per rep). Then the same run with
// the checks' screens (screens.checks.jsonl, three screens a rep, one unscored on a fixture): --json and --html with
// screens against the --json report without them (goal: both within 3x). Last, expected-state screens (checks.state,
// four screens a rep reading recorded rows): `judge --checks` and then `report --json` on 10,000 reps whose records
// hold effects, with checks.state against the same checks without it (goal: within 1.5x).
import { mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeMarkRun } from '../test/helpers/mark-run.js';
import { report } from '../src/report/report.js';
import { writeHtmlReport } from '../src/view/write-html-report.js';
import { CHECKS_SCREENS_FILE, formatScreens, type ScreenRow } from '../src/run-dir/screens-file.js';
import { readFile } from 'node:fs/promises';
import { judgeChecks } from '../src/judge/judge-checks.js';
import { CHECKS_MARKS_FILE } from '../src/judge/judge-checks.js';
import type { RepRecord } from '../src/run-dir/rep-record.js';
import { repFileBase } from '../src/run-dir/run-layout.js';

const SIZES = [100, 1_000, 10_000];
const TRIES = Number(process.env.BENCH_TRIES ?? 3);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const sentence =
  'You ride the lift up from engineering to the mess hall on deck 2, where Dr. Hale is nursing a cup of tea. ';

async function time(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

// Every rep's screens as judge --checks writes them: an answer term, a required action, a forbidden term.
function screenRows(per: number): ScreenRow[] {
  return ['base', 'base-fixed'].flatMap((fixture) =>
    Array.from({ length: per }, (_, i): ScreenRow => {
      const term = i % 3 === 0 ? 'fail' : 'pass';
      const action = fixture === 'base' ? 'unscored' : i % 4 === 0 ? 'fail' : 'pass';
      return {
        fixture,
        rep: i + 1,
        mark: term === 'fail' || action === 'fail' ? 'fail' : 'pass',
        screens: [
          {
            screen: 'answer-term',
            mark: term,
            reason: term === 'fail' ? 'does not contain "deck 2"' : '1 check(s) passed',
          },
          {
            screen: 'required-action',
            mark: action,
            reason: action === 'fail' ? 'inserted no notes row' : 'applies to base-fixed only',
          },
          { screen: 'no-swearing', mark: 'pass', reason: '1 check(s) passed' },
        ],
      };
    }),
  );
}

const results: { size: number; dir: string }[] = [];
const root = await mkdtemp(join(tmpdir(), 'turnkit-bench-report-'));
try {
  console.log('report benchmark: --html against --json, median of', TRIES, 'tries each');
  console.log('reps      json ms   html ms   ratio   html bytes/rep');
  for (const size of SIZES) {
    const per = size / 2;
    const responses = Array.from({ length: per }, (_, i) => `${sentence.repeat(5)}(rep ${i + 1})`);
    const dir = await makeMarkRun({
      dir: join(root, `run-${size}`),
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
    const file = join(root, `report-${size}.html`);
    // One of each first: the file system's cache warm for both.
    await report({ cwd: root, paths: { baseDir: root } }, { dir });
    await writeHtmlReport({ dir, cwd: root, file });
    const json: number[] = [];
    const html: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      json.push(
        await time(async () => JSON.stringify(await report({ cwd: root, paths: { baseDir: root } }, { dir }), null, 2)),
      );
      html.push(await time(() => writeHtmlReport({ dir, cwd: root, file })));
    }
    const bytes = (await stat(file)).size;
    const ratio = median(html) / median(json);
    console.log(
      `${String(size).padEnd(9)} ${median(json).toFixed(0).padStart(7)}   ${median(html).toFixed(0).padStart(7)}   ${ratio.toFixed(2).padStart(5)}x  ${(bytes / size).toFixed(0).padStart(8)}${ratio > 3 ? '   (over the 3x goal)' : ''}`,
    );
    results.push({ size, dir });
  }
  console.log('');
  console.log('with screens (3 a rep): --json and --html against --json without screens');
  console.log('reps      json ms   screens json ms   ratio   screens html ms   ratio');
  for (const { size, dir } of results) {
    const screens = join(dir, CHECKS_SCREENS_FILE);
    const aside = join(dir, 'screens.aside');
    await writeFile(screens, formatScreens(screenRows(size / 2)));
    const file = join(root, `report-screens-${size}.html`);
    await report({ cwd: root, paths: { baseDir: root } }, { dir });
    const jsonReport = async (): Promise<string> =>
      JSON.stringify(await report({ cwd: root, paths: { baseDir: root } }, { dir }), null, 2);
    const without: number[] = [];
    const withJson: number[] = [];
    const withHtml: number[] = [];
    // Interleaved, try by try: the baseline is measured under the same load as the runs with screens.
    for (let i = 0; i < TRIES; i++) {
      await rename(screens, aside);
      without.push(await time(jsonReport));
      await rename(aside, screens);
      withJson.push(await time(jsonReport));
      withHtml.push(await time(() => writeHtmlReport({ dir, cwd: root, file })));
    }
    const json = median(without);
    const jsonRatio = median(withJson) / json;
    const htmlRatio = median(withHtml) / json;
    console.log(
      `${String(size).padEnd(9)} ${json.toFixed(0).padStart(7)}   ${median(withJson).toFixed(0).padStart(15)}   ${jsonRatio.toFixed(2).padStart(5)}x  ${median(withHtml).toFixed(0).padStart(15)}   ${htmlRatio.toFixed(2).padStart(5)}x${jsonRatio > 3 || htmlRatio > 3 ? '   (over the 3x goal)' : ''}`,
    );
  }
  console.log('');
  await stateBench(results.find((entry) => entry.size === 10_000)!.dir);
} finally {
  await rm(root, { recursive: true, force: true });
}

// judge --checks, then report --json on its marks: with checks.state (four screens over each rep's recorded rows) and
// without it, interleaved try by try. Every rep's record is given the effects of a SUT that played its turn and
// wounded the captain, and touched a volatile timestamp.
async function stateBench(dir: string): Promise<void> {
  const manifestFile = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  const per = 5_000;
  for (const fixture of ['base', 'base-fixed'])
    for (let rep = 1; rep <= per; rep++) {
      const file = join(dir, `${repFileBase(fixture, rep)}.json`);
      const record = JSON.parse(await readFile(file, 'utf8')) as RepRecord;
      record.effects = {
        inserted: { turns: 1 },
        updated: { characters: 1, campaigns: 1 },
        deleted: {},
        insertedRows: {
          turns: [{ id: String(100 + rep), turn_number: 23, narration: record.response, played_at: 'now' }],
        },
        updatedRows: {
          characters: [{ key: { id: '7' }, changed: { hit_points: { before: 10, after: rep % 5 === 0 ? 8 : 9 } } }],
          campaigns: [{ key: { id: '1' }, changed: { started_at: { before: 'a', after: 'b' } } }],
        },
      };
      await writeFile(file, JSON.stringify(record));
    }
  const plain = {
    mustContain: ['deck 2'],
    mustNotContain: [],
    matches: [],
    mustNotMatch: [],
    effects: { inserted: [], noOutsideChanges: false },
  };
  const withState = {
    ...plain,
    state: {
      volatile: ['played_at', 'campaigns.started_at'],
      tables: {
        turns: { inserted: 1, rows: [{ turn_number: 23, narration: { matches: 'deck 2' } }] },
        characters: { updated: 1, rows: [{ key: { id: '7' }, hit_points: 9 }] },
        campaigns: 'unchanged',
      },
      onlyChanges: true,
    },
  };
  const project = { cwd: dir, paths: { baseDir: dir } };
  const judgeAndReport = async (checks: unknown): Promise<number> => {
    await writeFile(manifestFile, JSON.stringify({ ...manifest, checks }));
    return time(async () => {
      await judgeChecks(project, { dir });
      JSON.stringify(await report(project, { dir, marks: CHECKS_MARKS_FILE }), null, 2);
    });
  };
  await judgeAndReport(plain);
  await judgeAndReport(withState);
  const without: number[] = [];
  const withScreens: number[] = [];
  for (let i = 0; i < TRIES; i++) {
    without.push(await judgeAndReport(plain));
    withScreens.push(await judgeAndReport(withState));
  }
  const ratio = median(withScreens) / median(without);
  console.log('expected-state screens (checks.state): judge --checks + report --json, 10,000 reps');
  console.log('without ms   with state ms   ratio');
  console.log(
    `${median(without).toFixed(0).padStart(10)}   ${median(withScreens).toFixed(0).padStart(13)}   ${ratio.toFixed(2).padStart(5)}x${ratio > 1.5 ? '   (over the 1.5x goal)' : ''}`,
  );
  await writeFile(manifestFile, JSON.stringify(manifest));
}
