import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRunView } from '../../src/view/build-run-view.js';
import { rolloutView, turnMarkPairs, turnView } from '../../src/view/turn-views.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { makeRolloutRun, rolloutTurn } from '../helpers/rollout-run.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnkit-view-turns-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('a rollout turn as the page shows it', () => {
  it('keeps input, response, check and error, counts the effects per kind and table, drops the case file', () => {
    const turn = rolloutTurn('alpha', 1, 24, {
      check: { mark: 'fail', reason: 'names deck 3' },
      error: { cause: 'exit', message: 'exited with code 1' },
      effects: {
        inserted: { turns: 1, events: 2 },
        updated: { characters: 3 },
        deleted: { items: 1 },
        insertedRows: { events: [{ id: 1 }, { id: 2 }] },
      },
    });
    turn.input = { player_input: 'go aft', extra: { mood: 'lost' } };
    const view = turnView(turn);
    expect(view).toEqual({
      turn: 24,
      input: [
        ['player_input', 'go aft'],
        ['extra', '{"mood":"lost"}'],
      ],
      response: 'RESPONSE-alpha-1-24: take the lift.',
      error: { cause: 'exit', message: 'exited with code 1' },
      check: { mark: 'fail', reason: 'names deck 3' },
      changed: [
        { kind: 'inserted', table: 'events', rows: 2 },
        { kind: 'inserted', table: 'turns', rows: 1 },
        { kind: 'updated', table: 'characters', rows: 3 },
        { kind: 'deleted', table: 'items', rows: 1 },
      ],
      turnRow: 'sut',
      sutMs: 34,
    });
    expect(JSON.stringify(view)).not.toContain('case of turn');
  });

  it('says null for checks the question does not have and for effects that were not read', () => {
    const view = turnView({ ...rolloutTurn('alpha', 1, 23), effects: null });
    expect(view.check).toBeNull();
    expect(view.changed).toBeNull();
  });

  it('is no rollout for a one-turn rep, and keeps turn marks sorted by turn', () => {
    expect(rolloutView(undefined)).toBeUndefined();
    expect(rolloutView({ turns: undefined, rollout: undefined } as unknown as RepRecord)).toBeUndefined();
    expect(
      turnMarkPairs([
        { turn: 25, mark: 'na' },
        { turn: 23, mark: 'fail' },
      ]),
    ).toEqual([
      [23, 'fail'],
      [25, 'na'],
    ]);
    expect(turnMarkPairs(undefined)).toEqual([]);
  });
});

describe('buildRunView of a rollout run', () => {
  it("gives each rollout rep its turns in order, where it stopped, and each marks file's turn marks", async () => {
    const dir = await makeRolloutRun(join(root, 'run'), 3, [
      {
        name: 'alpha',
        reps: [{ turns: [{}, {}, {}] }, { turns: [{}, { check: { mark: 'fail', reason: 'r' } }], stopped: 'fail' }],
      },
      {
        name: 'beta',
        reps: [
          { turns: [{}, {}, {}] },
          { turns: [{}, { error: { cause: 'exit', message: 'BOOM' } }], stopped: 'error' },
        ],
      },
    ]);
    await writeFile(
      join(dir, 'marks.csv'),
      'fixture,rep,mark,note,turn_marks\nalpha,1,pass,,24:fail 23:pass\nalpha,2,,,\nbeta,1,,,\nbeta,2,error,sut: exit,\n',
    );
    await writeFile(join(dir, 'marks.other.csv'), 'fixture,rep,mark,note\nalpha,1,fail,\n');
    const view = await buildRunView({ dir, cwd: root });
    expect(view.marksFiles).toEqual(['marks.csv', 'marks.other.csv']);
    const rep = (fixture: string, number: number) =>
      view.reps.find((entry) => view.fixtures[entry.f]!.name === fixture && entry.rep === number)!;
    const alpha1 = rep('alpha', 1);
    // The joined transcript is not sent beside the turns that hold it.
    expect(alpha1.response).toBeNull();
    expect(alpha1.rollout).toMatchObject({ turns: 3, played: 3, stopped: null });
    expect(alpha1.rollout!.list.map((turn) => [turn.turn, turn.input[0]![1], turn.response])).toEqual([
      [23, 'INPUT-alpha-1-23 where now?', 'RESPONSE-alpha-1-23: take the lift.'],
      [24, 'INPUT-alpha-1-24 where now?', 'RESPONSE-alpha-1-24: take the lift.'],
      [25, 'INPUT-alpha-1-25 where now?', 'RESPONSE-alpha-1-25: take the lift.'],
    ]);
    expect(alpha1.rollout!.list[0]!.changed).toEqual([{ kind: 'inserted', table: 'turns', rows: 1 }]);
    expect(alpha1.turnMarks).toEqual([
      [
        [23, 'pass'],
        [24, 'fail'],
      ],
      [],
    ]);
    expect(rep('alpha', 2).rollout).toMatchObject({ turns: 3, played: 2, stopped: 'fail' });
    expect(rep('alpha', 2).rollout!.list[1]!.check).toEqual({ mark: 'fail', reason: 'r' });
    // No marks file gives alpha 2 a turn mark: the field is left out.
    expect(rep('alpha', 2)).not.toHaveProperty('turnMarks');
    const beta2 = rep('beta', 2);
    expect(beta2.status).toBe('error');
    expect(beta2.error).toMatchObject({ stage: 'sut', message: 'BOOM' });
    expect(beta2.rollout).toMatchObject({ played: 2, stopped: 'error' });
    expect(beta2.rollout!.list[1]!.error).toEqual({ cause: 'exit', message: 'BOOM' });
  });

  it('leaves a one-turn run as it was: the response, no rollout', async () => {
    const { makeMarkRun } = await import('../helpers/mark-run.js');
    const dir = await makeMarkRun({ dir: join(root, 'plain'), fixtures: [{ name: 'alpha', reps: ['ONE', 'TWO'] }] });
    await writeFile(join(dir, 'marks.csv'), 'fixture,rep,mark,note\nalpha,1,pass,\nalpha,2,,\n');
    const view = await buildRunView({ dir, cwd: root });
    expect(view.reps.map((entry) => entry.response)).toEqual(['ONE', 'TWO']);
    expect(view.reps.some((entry) => 'rollout' in entry || 'turnMarks' in entry)).toBe(false);
  });
});
