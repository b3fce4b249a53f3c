import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadQuestion } from '../../src/question/load-question.js';

const BASE = [
  'id: rollout',
  'question: Does the route hold over five turns?',
  'rubric: { path: questions/rubric.md, version: 1 }',
  'target: 0.9',
  'reps: 3',
  'fixtures: [fixtures/a.json]',
  'sut: { type: command, command: [node, sut.mjs] }',
  'caseFile: questions/case.md',
];

describe('a rollout question', () => {
  let dir: string;
  let n = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-rollout-question-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const load = async (lines: string[]) => {
    const path = join(dir, `q${n++}.yaml`);
    await writeFile(path, [...BASE, ...lines].join('\n'));
    return loadQuestion(path);
  };

  it('has no rollout fields when it declares none (one turn per rep as before)', async () => {
    const { question } = await load([]);
    expect(question.turns).toBeUndefined();
    expect(question.players).toBeUndefined();
    expect(Object.keys(question)).not.toContain('turns');
  });

  it('reads turns, each kind of players, stopOn and transcriptChecks', async () => {
    const recorded = await load([
      'turns: 5',
      'players: { type: recorded }',
      'stopOn: fail',
      'checks: { mustContain: [deck 2] }',
    ]);
    expect(recorded.question).toMatchObject({ turns: 5, players: { type: 'recorded' }, stopOn: 'fail' });
    const script = await load([
      'turns: 3',
      'players:',
      '  type: script',
      '  inputs: [go left, { player_input: go right }]',
      '  byFixture: { a: [wait, wait] }',
      'transcriptChecks: { mustNotContain: [deck 3] }',
    ]);
    expect(script.question.players).toEqual({
      type: 'script',
      inputs: ['go left', { player_input: 'go right' }],
      byFixture: { a: ['wait', 'wait'] },
    });
    expect(script.question.transcriptChecks?.mustNotContain).toEqual(['deck 3']);
    const simulated = await load([
      'turns: 4',
      'players: { type: simulated, baseUrl: "http://127.0.0.1:9/v1", model: m, persona: a lost cadet }',
    ]);
    expect(simulated.question.players).toEqual({
      type: 'simulated',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      persona: 'a lost cadet',
      timeout: 60,
    });
    const command = await load(['turns: 2', 'players: { type: command, command: [node, player.mjs] }']);
    expect(command.question.players).toMatchObject({ type: 'command', command: ['node', 'player.mjs'], timeout: 60 });
  });

  it('names the place of a bad value in one line', async () => {
    await expect(load(['turns: 0'])).rejects.toThrow(/q\d+\.yaml:9:8: \$\.turns: at least 1 turn$/);
    await expect(load(['stopOn: pass'])).rejects.toThrow(/\$\.stopOn: the one value is "fail"/);
    await expect(load(['players: { type: script }'])).rejects.toThrow(/\$\.players: give inputs/);
    await expect(
      load(['players: { type: simulated, baseUrl: "http://x/v1", model: m, persona: p, temperatur: 1 }']),
    ).rejects.toThrow(/unknown key "temperatur" \(did you mean "temperature"\?\)/);
  });
});
