import { describe, expect, it } from 'vitest';
import { exampleCommand } from '../helpers/example-words.js';

// test/e2e/help-examples.test.ts runs each --help example in process with these words: they must be the words sh
// would pass, and a line needing more of a shell than they cover must fail instead of running differently.
describe('the words of a help example', () => {
  it('splits as sh does: quotes, a trailing comment, a redirect', () => {
    expect(exampleCommand("turnkit construct f.json --turn 19 --why 'is it right?'   # a comment")).toEqual({
      program: 'turnkit',
      args: ['construct', 'f.json', '--turn', '19', '--why', 'is it right?'],
    });
    expect(exampleCommand('turnkit materialize c.json > /tmp/out.json')).toEqual({
      program: 'turnkit',
      args: ['materialize', 'c.json'],
      stdoutTo: '/tmp/out.json',
    });
    expect(exampleCommand(`echo '{"turns": [{"id": "19"}]}' > patch.json`)).toEqual({
      program: 'echo',
      args: ['{"turns": [{"id": "19"}]}'],
      stdoutTo: 'patch.json',
    });
    expect(exampleCommand('turnkit a"b c"d x#y').args).toEqual(['ab cd', 'x#y']);
  });

  it('refuses what only a shell would do, and other programs', () => {
    expect(() => exampleCommand('turnkit run $FILE')).toThrow(/needs a shell/);
    expect(() => exampleCommand('turnkit materialize c.json | head')).toThrow(/needs a shell/);
    expect(() => exampleCommand('turnkit show "$(ls)"')).toThrow(/needs a shell to expand/);
    expect(() => exampleCommand("turnkit show 'unclosed")).toThrow(/unclosed/);
    expect(() => exampleCommand('turnkit show a > b > c')).toThrow(/one "> FILE"/);
    expect(() => exampleCommand('npx turnkit show')).toThrow(/does not start with turnkit/);
  });
});
