import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { configPlace } from '../../src/config/config-place.js';
import { didYouMean } from '../../src/config/issue-lines.js';

describe('didYouMean', () => {
  const columns = ['id', 'campaign_id', 'turn_number', 'player_input', 'narration'];

  it('suggests a name differing in case or schema prefix, a near typo, or a name cut short', () => {
    expect(didYouMean('Campaigns', ['campaigns', 'turns'])).toBe(' (did you mean "campaigns"?)');
    expect(didYouMean('turns', ['game.turns', 'users'])).toBe(' (did you mean "game.turns"?)');
    expect(didYouMean('narraton', columns)).toBe(' (did you mean "narration"?)');
    expect(didYouMean('turn_no', columns)).toBe(' (did you mean "turn_number"?)');
  });

  it('says nothing when no known name is near', () => {
    expect(didYouMean('players', ['users', 'campaigns', 'turns'])).toBe('');
    expect(didYouMean('xyz', columns)).toBe('');
    expect(didYouMean('anything', [])).toBe('');
  });
});

describe('configPlace', () => {
  it("gives a JSON config's line:column of the key, an array item's own place, and the path alone without a file", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'turnkit-place-'));
    try {
      const file = join(dir, 'turnkit.config.json');
      await writeFile(file, '{\n  "game": {\n    "root": { "table": "campaign" },\n    "shared": ["a", "b"]\n  }\n}\n');
      const shown = relative(process.cwd(), file);
      expect(configPlace(file, ['game', 'root', 'table'])).toBe(`${shown}:3:15: $.game.root.table`);
      expect(configPlace(file, ['game', 'shared', 1])).toBe(`${shown}:4:21: $.game.shared[1]`);
      expect(configPlace(undefined, ['game', 'root', 'table'])).toBe('<sample game config>: $.game.root.table');
      expect(configPlace(join(dir, 'gone.json'), ['game'])).toBe(
        `${relative(process.cwd(), join(dir, 'gone.json'))}: $.game`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
