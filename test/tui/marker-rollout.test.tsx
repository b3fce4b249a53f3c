import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildReport } from '../../src/report/build-report.js';
import { formatSurvival } from '../../src/report/format-survival.js';
import { MarkingSession } from '../../src/marking/marking-session.js';
import { parseMarksText } from '../../src/run-dir/marks/read-marks.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { repId } from '../../src/run-dir/run-state.js';
import type { TurnRecord } from '../../src/run-dir/rollout-record.js';
import { MarkerApp } from '../../src/tui/marker/marker-app.js';
import { makeMarkRun } from '../helpers/mark-run.js';

const tick = (ms = 30): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => T | undefined | false, what: () => string): Promise<T> {
  for (let i = 0; i < 800; i++) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    await tick(25);
  }
  throw new Error(`timed out waiting for ${what()}`);
}

let root: string;
let count = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnkit-marker-rollout-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A turn of a hand-made rollout: its input and response name the turn, so the screen shows which one it is. */
function turn(number: number, fixture: string): TurnRecord {
  return {
    turn: number,
    input: { player_input: `INPUT-${number} where now?` },
    caseFile: '# case',
    response: `RESPONSE-${number} of ${fixture}: take the lift.`,
    error: null,
    timings: { playerMs: 0, sutMs: 10, turnkitMs: 1 },
    effects: { inserted: {}, updated: {}, deleted: {}, insertedRows: {} },
    turnRow: 'sut',
  };
}

/**
 * A run of two fixtures (alpha, beta) with two reps each, every rep a 3-turn rollout from turn 23 (23..25): the rep
 * files are rewritten as a rollout run writes them (turns, rollout, the transcript as the response).
 */
async function rolloutRun(): Promise<string> {
  const dir = await makeMarkRun({
    dir: join(root, `run-${++count}`),
    fixtures: [
      { name: 'alpha', reps: ['x', 'x'] },
      { name: 'beta', reps: ['x', 'x'] },
    ],
  });
  for (const fixture of ['alpha', 'beta'])
    for (const rep of [1, 2]) {
      const file = join(dir, 'reps', fixture, `rep-0${rep}.json`);
      const record = JSON.parse(await readFile(file, 'utf8')) as RepRecord;
      record.turns = [23, 24, 25].map((number) => turn(number, fixture));
      record.rollout = { turns: 3, played: 3 };
      record.response = record.turns.map((entry) => entry.response).join('\n\n');
      await writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
    }
  return dir;
}

async function openMarker(session: MarkingSession) {
  const app = render(<MarkerApp session={session} width={80} height={24} onDone={() => {}} />);
  await tick();
  const frame = (): string => app.lastFrame() ?? '';
  const header = (): string => frame().split('\n')[0] ?? '';
  const pressUntil = async (key: string, text: string): Promise<string> => {
    await tick();
    app.stdin.write(key);
    await until(
      () => frame().includes(text),
      () => `the frame to show ${JSON.stringify(text)}; it shows:\n${frame()}`,
    );
    await session.flush();
    await until(
      () => !frame().includes(' · saving'),
      () => `the frame to stop saying saving; it shows:\n${frame()}`,
    );
    return frame();
  };
  return { app, frame, header, pressUntil };
}

describe('turnkit mark on a rollout run', () => {
  it('steps through the turns of a rep, input then response, with the turn in the header', async () => {
    const dir = await rolloutRun();
    const marker = await openMarker(await MarkingSession.open({ dir, who: 'ann' }));
    expect(marker.header()).toContain('turn 23 of 25');
    const first = marker.frame();
    expect(first).toContain('TURN 23 of 25 (step 1 of 3; 3 played)');
    expect(first.indexOf('INPUT-23')).toBeGreaterThan(-1);
    // The player's input comes before the response, and no other turn is on screen.
    expect(first.indexOf('INPUT-23')).toBeLessThan(first.indexOf('RESPONSE-23'));
    expect(first).not.toContain('RESPONSE-24');
    const second = await marker.pressUntil(']', 'TURN 24 of 25');
    expect(marker.header()).toContain('turn 24 of 25');
    expect(second).toContain('RESPONSE-24 of alpha');
    expect(second).not.toContain('RESPONSE-23');
    await marker.pressUntil(']', 'TURN 25 of 25');
    expect(await marker.pressUntil(']', 'last turn played')).toContain('RESPONSE-25');
    await marker.pressUntil('[', 'TURN 24 of 25');
    // The next rep opens at its first turn.
    await marker.pressUntil('\u001B[C', 'TURN 23 of 25');
    expect(marker.header()).toContain('beta rep 1');
    marker.app.unmount();
  });

  it('marks a turn in the optional turn_marks column, keeps one mark per rep, and the report reads it', async () => {
    const dir = await rolloutRun();
    const session = await MarkingSession.open({ dir, who: 'ann' });
    const marker = await openMarker(session);
    await marker.pressUntil(']', 'TURN 24 of 25');
    expect(await marker.pressUntil('F', 'turn 24: fail')).toContain('your mark for this turn: fail');
    // The rep's own mark is still to give: p marks the rep (and moves on), the turn's mark stays.
    await marker.pressUntil('p', 'beta rep 1');
    marker.app.unmount();
    const text = await readFile(join(dir, 'marks.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe('fixture,rep,mark,note,grader,marked_at,rubric_version,turn_marks');
    const rows = parseMarksText(text, 'marks.csv', { fixtures: ['alpha', 'beta'], reps: 2 });
    expect(rows.get(repId({ fixture: 'alpha', rep: 1 }))).toMatchObject({
      mark: 'pass',
      turnMarks: [{ turn: 24, mark: 'fail' }],
    });
    for (const key of [{ fixture: 'alpha', rep: 2 }, { fixture: 'beta', rep: 1 }, { fixture: 'beta', rep: 2 }]) {
      expect(rows.get(repId(key))?.mark ?? '').toBe('');
      expect(rows.get(repId(key))?.turnMarks).toBeUndefined();
    }
    // The other reps pass every turn: alpha's survival is 2/2 after turn 23, then 1/2 (the person failed turn 24).
    const report = await buildReport(dir);
    const alpha = report.rollout!.fixtures.find((entry) => entry.fixture === 'alpha')!;
    expect(alpha.steps.map((step) => step.surviving)).toEqual([2, 1, 1]);
    expect(alpha.medianFirstFailingTurn).toBe(24);
    const beta = report.rollout!.fixtures.find((entry) => entry.fixture === 'beta')!;
    expect(beta.steps.map((step) => step.surviving)).toEqual([2, 2, 2]);
    expect(report.rollout!.turnMarks).toEqual({ marked: 1, failed: 1 });
    expect(formatSurvival(report.rollout!, 'text')).toContain(
      '1 turn marked by a person (turn_marks), 1 fail: counted with the checks.',
    );
    // U takes the turn's mark away; the column goes when no row has one, as in a file written before it existed.
    const again = await openMarker(await MarkingSession.open({ dir, who: 'ann' }));
    await again.pressUntil('\u001B[D', 'alpha rep 1');
    await again.pressUntil(']', 'TURN 24 of 25');
    await again.pressUntil('U', 'turn 24: unmarked');
    again.app.unmount();
    expect((await readFile(join(dir, 'marks.csv'), 'utf8')).split('\n')[0]).toBe(
      'fixture,rep,mark,note,grader,marked_at,rubric_version',
    );
  });

  it('blind: the turns are shown with every fixture name replaced, the header naming the turn but not the rep', async () => {
    const dir = await rolloutRun();
    const marker = await openMarker(await MarkingSession.open({ dir, who: 'ann', blind: true, seed: 3 }));
    expect(marker.header()).toMatch(/^places · case \d · item 1 of 4 · turn 23 of 25 · marked 0\/4 · blind$/);
    const shown = await marker.pressUntil(']', 'TURN 24 of 25');
    expect(shown).toContain('RESPONSE-24 of case');
    expect(shown).not.toMatch(/alpha|beta/);
    marker.app.unmount();
  });
});
