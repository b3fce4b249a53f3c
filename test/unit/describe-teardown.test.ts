import { describe, expect, it } from 'vitest';
import { describeTeardown } from '../../src/cli/describe-teardown.js';

describe('what turnkit teardown says it removed', () => {
  const base = {
    id: 'scratch-1',
    fixture: 'meridian-turn-23',
    key: '7',
    addedBySut: {},
    sharedDeleted: 0,
    sharedKept: 0,
  };

  it('a remap campaign: its rows, and which the game added', () => {
    expect(describeTeardown({ ...base, deleted: { turns: 23, campaigns: 1 }, addedBySut: { turns: 1 } })).toBe(
      'removed scratch-1 (meridian-turn-23, key 7): 24 rows; of which the game added 1 in turns',
    );
  });

  it('a database-strategy campaign: the database it dropped, not "0 rows"', () => {
    expect(describeTeardown({ ...base, deleted: {}, droppedDatabase: 'turnkit_scratch_ab12' })).toBe(
      'removed scratch-1 (meridian-turn-23, key 7): dropped database turnkit_scratch_ab12 with everything in it',
    );
  });
});
