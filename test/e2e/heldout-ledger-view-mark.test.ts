import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BIN, type CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { sampleRunProject } from '../helpers/sample-project.js';
import { hasTmux, killTmuxServer, requireTmux, startInTmux, tmuxQuiet, waitForPane, tmux } from '../helpers/tmux.js';
import type { RunView } from '../../src/view/view-data.js';

const LEDGER = 'heldout-ledger.jsonl';
const HELD = ['meridian-turn-23'];

/**
 * Starts `turnkit view` (the binary) on runs, reads the first run's page data from its API, then stops it with
 * Ctrl-C as a person would; returns that data and the exit code.
 */
async function viewOnce(project: string, args: string[]): Promise<{ run: RunView; code: number | null }> {
  const child = spawn(process.execPath, [BIN, 'view', ...args], {
    cwd: project,
    env: { ...process.env, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<URL>((resolve, reject) => {
    const check = (): void => {
      const found = /^turnkit view: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)$/m.exec(stdout);
      // The ledger line is written before the "serving" note: once it is printed, the look is on disk.
      if (found && stderr.includes('Ctrl-C stops')) resolve(new URL(found[1]!));
    };
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      check();
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      check();
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  try {
    const api = new URL('/api/run', url);
    api.searchParams.set('token', url.searchParams.get('token')!);
    api.searchParams.set('run', '0');
    const response = await fetch(api);
    expect(response.status).toBe(200);
    const { run } = (await response.json()) as { run: RunView };
    return { run, code: null };
  } finally {
    child.kill('SIGINT');
    await exited;
  }
}

describe('the held-out ledger and the marks by source of view and mark, and the looks on the page and summary', () => {
  let project: string;
  let heldRun: string;
  let devRun: string;
  const cli = (args: string[], env?: Record<string, string>): Promise<CliResult> =>
    runInProcess(args, { cwd: project, ...(env ? { env } : {}) });
  const lines = async (): Promise<Record<string, unknown>[]> =>
    existsSync(join(project, LEDGER))
      ? (await readFile(join(project, LEDGER), 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>)
      : [];

  beforeAll(async () => {
    project = await sampleRunProject('turnkit-e2e-heldout-view-');
    const places = await readFile(join(project, 'questions/places.yaml'), 'utf8');
    const held = places
      .replace('id: places', 'id: places-held')
      .replace(
        'path: fixtures/meridian-turn-23.json\n    tag: dev',
        'path: fixtures/meridian-turn-23.json\n    tag: heldout',
      );
    expect(held).toContain('tag: heldout');
    await writeFile(join(project, 'questions/places-held.yaml'), held);
    const dev = await cli(['run', 'questions/places.yaml', '--reps', '2', '--json']);
    expect(dev.code, dev.stderr).toBe(0);
    devRun = (JSON.parse(dev.stdout) as { dir: string }).dir;
    const result = await cli(['run', 'questions/places-held.yaml', '--reps', '2', '--json']);
    expect(result.code, result.stderr).toBe(0);
    heldRun = (JSON.parse(result.stdout) as { dir: string }).dir;
    // The checks mark every rep; a person marks the first rep of each fixture: half the reps.
    expect((await cli(['judge', heldRun, '--checks'])).code).toBe(0);
    await writeFile(
      join(project, heldRun, 'marks.csv'),
      'fixture,rep,mark,note\nmeridian-turn-23,1,fail,by hand\nmeridian-turn-23,2,,\nmeridian-turn-23-deck-fixed,1,pass,by hand\nmeridian-turn-23-deck-fixed,2,,\n',
    );
    expect((await lines()).map((line) => line.command)).toEqual(['run', 'judge']);
  }, 300_000);
  afterAll(async () => {
    killTmuxServer();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('view --marks a,b serves the report with each mark from the first file that has it, and the marks by source; one ledger line', async () => {
    const before = (await lines()).length;
    const { run } = await viewOnce(project, [heldRun, '--marks', 'marks.csv,marks.checks.csv']);
    // The person's marks where there are some, the checks' elsewhere: one of each per fixture.
    expect(run.report.marksSources).toEqual({
      files: ['marks.csv', 'marks.checks.csv'],
      fixtures: [
        {
          fixture: 'meridian-turn-23',
          sources: [
            { file: 'marks.csv', marks: 1 },
            { file: 'marks.checks.csv', marks: 1 },
          ],
        },
        {
          fixture: 'meridian-turn-23-deck-fixed',
          sources: [
            { file: 'marks.csv', marks: 1 },
            { file: 'marks.checks.csv', marks: 1 },
          ],
        },
      ],
    });
    const base = run.report.fixtures.find((fixture) => fixture.fixture === 'meridian-turn-23')!;
    // Rep 1 the person's fail; rep 2 the checks' mark (the sample SUT misroutes the base: a fail too).
    expect(base.fail + base.pass).toBe(2);
    // The same rates as report --marks a,b prints.
    const text = await cli(['report', heldRun, '--marks', 'marks.csv,marks.checks.csv', '--json']);
    const json = JSON.parse(text.stdout) as { report: RunView['report'] };
    expect(run.report.fixtures.map((f) => [f.fixture, f.pass, f.fail])).toEqual(
      json.report.fixtures.map((f) => [f.fixture, f.pass, f.fail]),
    );
    // view, then that report: two lines, the view's naming the run and the held-out fixture.
    const after = await lines();
    expect(after).toHaveLength(before + 2);
    expect(after[before]).toMatchObject({ command: 'view', use: 'look', fixtures: HELD, targets: [heldRun] });
    // The viewer's report shows the count of looks, this one included.
    expect(run.heldout).toBe(
      `held-out set: looked at ${before + 1} time(s) by 1 person(s) since it was frozen at ${after[0]!.at} (${LEDGER})`,
    );
  }, 120_000);

  it('view of a run that holds nothing out writes no line', async () => {
    const before = (await lines()).length;
    const { run } = await viewOnce(project, [devRun]);
    expect(run.report.fixtures).toHaveLength(2);
    expect(run.heldout).toBeNull();
    expect(await lines()).toHaveLength(before);
  }, 120_000);

  it('report --html shows the looks on the page; --format github puts them in the step summary', async () => {
    const before = (await lines()).length;
    const page = join(project, 'held.html');
    // Half the reps marked by the person: incomplete, whatever the exit code says, the page is written.
    const html = await cli(['report', heldRun, '--html', page]);
    const all = await lines();
    expect(all).toHaveLength(before + 1);
    const expected = `held-out set: looked at ${before + 1} time(s) by 1 person(s) since it was frozen at ${all[0]!.at} (${LEDGER})`;
    expect(html.stderr).toContain(expected);
    const text = await readFile(page, 'utf8');
    const data = /<script type="application\/json" id="turnkit-data">(.*?)<\/script>/s.exec(text)![1]!;
    expect((JSON.parse(data) as { runs: RunView[] }).runs[0]!.heldout).toBe(expected);

    const summary = join(project, 'step-summary.md');
    const github = await cli(['report', heldRun, '--format', 'github'], { GITHUB_STEP_SUMMARY: summary });
    const looked = `held-out set: looked at ${before + 2} time(s)`;
    expect(await readFile(summary, 'utf8')).toContain(looked);
    // The workflow's commands on stdout stay commands: the line is on stderr and in the summary only.
    expect(github.stdout).not.toContain(looked);

    // A run that holds nothing out: nothing on its page, nothing in its summary.
    const devPage = join(project, 'dev.html');
    await cli(['report', devRun, '--html', devPage]);
    const devData = /<script type="application\/json" id="turnkit-data">(.*?)<\/script>/s.exec(
      await readFile(devPage, 'utf8'),
    )![1]!;
    expect((JSON.parse(devData) as { runs: RunView[] }).runs[0]!.heldout).toBeNull();
    const devSummary = join(project, 'dev-summary.md');
    await cli(['report', devRun, '--format', 'github'], { GITHUB_STEP_SUMMARY: devSummary });
    expect(await readFile(devSummary, 'utf8')).not.toContain('held-out set');
    expect(await lines()).toHaveLength(before + 2);
  }, 120_000);

  it('has tmux to drive the terminal marker with (required on CI)', () => {
    expect(hasTmux || !requireTmux).toBe(true);
  });

  it.runIf(hasTmux)(
    'mark of a run with a held-out fixture writes one line; of a run with none, no line',
    async () => {
      for (const [dir, grows] of [
        [heldRun, 1],
        [devRun, 0],
      ] as const) {
        const before = (await lines()).length;
        const session = `turnkit-ledger-mark-${process.pid}-${grows}`;
        startInTmux(
          session,
          project,
          `${process.execPath} ${BIN} mark ${dir} --grader ledger; echo "exit=$?"; sleep 30`,
        );
        try {
          await waitForPane(session, '[1 response]');
          tmux(['send-keys', '-t', session, 'q']);
          await waitForPane(session, 'exit=0');
        } finally {
          tmuxQuiet(['kill-session', '-t', session]);
        }
        const after = await lines();
        expect(after).toHaveLength(before + grows);
        if (grows)
          expect(after.at(-1)).toMatchObject({ command: 'mark', use: 'look', fixtures: HELD, targets: [heldRun] });
      }
    },
    300_000,
  );
});
