import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import type { ChangeConflict } from '../../src/fixture/constructed/apply-changes.js';
import type { KeepChoice } from '../../src/fixture/constructed/resolve-conflicts.js';
import { ResolverApp } from '../../src/tui/rebase/resolver-app.js';

const KEYS = { down: '\u001B[B', pageDown: '\u001B[6~', escape: '\u001B' };
const tick = (ms = 30): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(probe: () => boolean, what: () => string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (probe()) return;
    await tick(25);
  }
  throw new Error(`timed out waiting for ${what()}`);
}

/** The resolver at 80x24 on these conflicts; `save` stands in for the rebase that writes the file. */
async function open(conflicts: ChangeConflict[], save: (choices: KeepChoice[]) => Promise<string>) {
  const done: (string | undefined)[] = [];
  const app = render(
    <ResolverApp
      file="constructed/x.json"
      base="fixtures/x.json"
      conflicts={conflicts}
      onSave={save}
      onDone={(result) => done.push(result)}
      width={80}
      height={24}
    />,
  );
  await tick();
  const frame = (): string => app.lastFrame() ?? '';
  const press = async (key: string, shows: string): Promise<string> => {
    app.stdin.write(key);
    await until(
      () => frame().includes(shows),
      () => `${JSON.stringify(shows)}; the frame shows:\n${frame()}`,
    );
    return frame();
  };
  return { app, frame, press, done };
}

const narration = (text: string): ChangeConflict => ({
  path: 'turns[id=19].narration',
  old: 'The mess hall is on deck 3.',
  base: text,
  new: 'The mess hall is on deck 2.',
});

describe('the rebase conflict resolver', () => {
  it('shows control characters of game text as visible escapes, never raw', async () => {
    const { frame, app } = await open([narration('Red \u001b[31malert\u001b[0m and a bell\u0007.')], async () => 'x');
    expect(frame()).toContain('Red \\u001b[31malert\\u001b[0m and a bell\\u0007.');
    expect(frame()).not.toContain('\u0007');
    app.unmount();
  });

  it('keeps only the base where the new base lost the row, and stays open with the reason when the save fails', async () => {
    const gone: ChangeConflict = { path: 'turns[id=7].narration', old: 'a', base: undefined, new: 'b' };
    const saves: KeepChoice[][] = [];
    const { press, done, app } = await open([gone], async (choices) => {
      saves.push(choices);
      throw new Error('keeping the base everywhere leaves no change');
    });
    await press('c', 'only b (keep the new base) applies');
    await press('b', 'all chosen');
    await press('s', 'not saved: keeping the base everywhere leaves no change');
    expect(saves).toEqual([[{ path: 'turns[id=7].narration', keep: 'base' }]]);
    expect(done).toEqual([]);
    app.unmount();
  });

  it('asks before quitting once a side is chosen; a quit writes nothing', async () => {
    let saved = 0;
    const { press, done, frame, app } = await open([narration('x'), { ...narration('y'), path: 'turns[id=19].mood' }], async () => {
      saved++;
      return 'written';
    });
    await press('b', '1 to choose');
    await press('q', 'quit without rebasing?');
    app.stdin.write('n');
    await until(() => !frame().includes('quit without rebasing?'), frame);
    expect(frame()).toContain('1 to choose');
    await press(KEYS.escape, 'quit without rebasing?');
    app.stdin.write('y');
    await until(() => done.length === 1, () => 'the resolver to close');
    expect(done).toEqual([undefined]);
    expect(saved).toBe(0);
  });

  it('scrolls a long value with PgDn and hands the choices per path to the save', async () => {
    const long = Array.from({ length: 60 }, (_, i) => `word${i} sentence ${i} of the recaptured narration.`).join(' ');
    const saves: KeepChoice[][] = [];
    const { press, done, app, frame } = await open([narration(long), { ...narration('y'), path: 'turns[id=19].mood' }], async (choices) => {
      saves.push(choices);
      return 'written';
    });
    expect(frame()).toMatch(/\(lines 1-\d+ of \d+\)/);
    app.stdin.write(KEYS.pageDown);
    await until(() => !frame().includes('(lines 1-'), frame);
    expect(Number(/\(lines (\d+)-/.exec(frame())![1])).toBeGreaterThan(10);
    expect(frame()).toContain('word');
    await press('c', '1 to choose');
    await press(KEYS.down, '▸ turns[id=19].mood');
    await press('b', 'all chosen');
    app.stdin.write('s');
    await until(() => done.length === 1, () => 'the resolver to close');
    expect(saves).toEqual([
      [
        { path: 'turns[id=19].narration', keep: 'change' },
        { path: 'turns[id=19].mood', keep: 'base' },
      ],
    ]);
    expect(done).toEqual(['written']);
  });
});
