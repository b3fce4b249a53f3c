import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hasBrowser, launchBrowser, requireBrowser, watchedPage } from '../helpers/browser.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { runQuestion } from '../../src/app/run-question.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { writeHtmlReport } from '../../src/view/write-html-report.js';

// page.evaluate runs these callbacks in the page, where document is the page's.
declare const document: {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): Iterable<{
    textContent: string | null;
    querySelectorAll(selector: string): Iterable<{ textContent: string | null }>;
  }>;
};

// The SUT keeps the mess hall on deck 2 unless the player refuses; recorded players refused, the simulated one
// always plays along: the page must show the simulated player's kinder survival and the flag.
const SUT = `let text = '';
process.stdin.on('data', (c) => (text += c)).on('end', () => {
  const { input } = JSON.parse(text);
  const said = String(input.player_input ?? '');
  process.stdout.write(/refuse|\\bno\\b/i.test(said) ? 'You stay put; the mess hall is on deck 3.' : 'The lift takes you to the mess hall on deck 2.');
});
`;

describe('report --html --compare of a simulated player against recorded inputs, in a real browser', () => {
  let t: TestDb;
  let llm: FakeLlmServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

  beforeAll(async () => {
    t = await createSampleTestDb('embedded');
    const campaign = await createSampleCampaign(t.db, { turns: 40 });
    const fixture = (
      await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign, turns: { turn: 23 }, ahead: 3 })
    ).fixtures[0]!;
    const refusing = {
      ...fixture,
      name: 'base',
      ahead: fixture.ahead!.map((entry) => ({ ...entry, values: { ...entry.values, player_input: 'No. I refuse.' } })),
    };
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument(refusing));
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when every turn keeps the mess hall on deck 2\n');
    await writeFile(join(t.dir, 'questions/case.md'), 'Turn {{turn}}: {{input}}\n');
    await writeFile(join(t.dir, 'sut.mjs'), SUT);
    await writeFile(join(t.dir, 'answers.config.json'), JSON.stringify(sampleGameConfig));
    llm = await startFakeLlmServer(() => ({ content: 'Yes, take me to the mess hall.' }));
    await writeFile(
      join(t.dir, 'questions/players.yaml'),
      [
        'id: players',
        'question: Does the route hold over three turns?',
        'rubric: { path: questions/rubric.md, version: "1" }',
        'target: 0.9',
        'reps: 4',
        'fixtures: [fixtures/base.json]',
        'caseFile: questions/case.md',
        'turns: 3',
        'stopOn: fail',
        'checks: { mustContain: ["deck 2"] }',
        'sut: { type: command, command: [node, sut.mjs] }',
        `players: { type: simulated, baseUrl: "${llm.openaiBaseUrl}", model: player-1, persona: "a cadet who plays along" }`,
        '',
      ].join('\n'),
    );
    if (hasBrowser) browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await llm?.close();
    await t?.cleanup();
  });

  it('has a Chromium to open the page with (required on CI)', () => {
    expect(hasBrowser || !requireBrowser).toBe(true);
  });

  it.runIf(hasBrowser)('shows survival per turn on each side, how the inputs read, and the flag', async () => {
    const common = {
      question: 'questions/players.yaml',
      cwd: t.dir,
      configPath: 'answers.config.json',
      concurrency: 2,
      env: { PATH: process.env.PATH },
    };
    const simulated = await runQuestion(common);
    const recorded = await runQuestion({ ...common, players: 'recorded' });
    for (const dir of [simulated.dir, recorded.dir]) await writeFile(join(dir, 'marks.csv'), 'fixture,rep,mark,note\n');
    const { file } = await writeHtmlReport({ cwd: t.dir, dir: simulated.dir, compare: recorded.dir });
    const { page, problems } = await watchedPage(browser!.context);
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('table.players-steps');
    const steps = await page.evaluate(() =>
      [...document.querySelectorAll('table.players-steps tbody tr')].map((row) =>
        [...row.querySelectorAll('td, th')].map((cell) => cell.textContent),
      ),
    );
    // Every simulated rep survives its three turns; every recorded one fails at its second (the first refusal).
    expect(steps.map((row) => row.slice(0, 4))).toEqual([
      ['23', '4/4', '4/4', '\u00b10.00'],
      ['24', '4/4', '0/4', '+1.00'],
      ['25', '4/4', '0/4', '+1.00'],
    ]);
    expect(Number(steps[2]![4])).toBeLessThan(0.05);
    const title = await page.evaluate(() => document.querySelector('section.players h3')?.textContent);
    expect(title).toMatch(
      /^Simulated player \(player-1, persona sha256 [0-9a-f]{12}\) against the recorded inputs \(the other run\)$/,
    );
    const flag = await page.evaluate(() => document.querySelector('section.players p.flag')?.textContent);
    expect(flag).toMatch(
      /^flag: the simulated player's reps survive more than with the recorded inputs by turn 25 \(\+1\.00, p /,
    );
    expect(problems).toEqual([]);
  });
});
