import { describe, expect, it } from 'vitest';
import { judgePrompt } from '../../src/judge/judge-prompt.js';

describe('the judge prompt of a rollout', () => {
  const base = { question: 'Does the route hold?', rubric: 'pass when deck 2', caseFile: 'Turn 23' };

  it('asks for the whole transcript to be graded, fenced as data', () => {
    const transcript = '**Turn 23.** Player: where?\n\ndeck 2\n\n**Turn 24.** Player: and now?\n\ndeck 3';
    const prompt = judgePrompt({ ...base, response: transcript, turns: 2 });
    expect(prompt.user).toContain(
      "# Transcript to grade (2 turns: each player input and the game master's response; grade the whole, a failure at any turn fails it)\n\n~~~~\n" +
        `${transcript}\n~~~~`,
    );
    expect(prompt.system.split('\n').at(-1)).toBe(
      "The case file is the first turn's; the transcript shows every turn that followed.",
    );
  });

  it('leaves a one-turn prompt as it was', () => {
    const prompt = judgePrompt({ ...base, response: 'deck 2' });
    expect(prompt.user).toContain('# Response to grade\n\n~~~~\ndeck 2\n~~~~');
    expect(prompt.system).not.toContain('transcript');
  });
});
