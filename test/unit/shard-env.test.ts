import { describe, expect, it } from 'vitest';
import { parseAutoShard, shardFromEnvironment, shardRunName } from '../../src/shard/shard-env.js';

const fails = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('did not fail');
};

describe('--shard auto from the environment', () => {
  it('parses auto and auto/N, and nothing else', () => {
    expect(parseAutoShard('auto')).toEqual({ auto: true });
    expect(parseAutoShard('auto/4')).toEqual({ auto: true, count: 4 });
    expect(parseAutoShard('2/4')).toBeUndefined();
    expect(fails(() => parseAutoShard('auto/0'))).toBe('--shard auto/0: the number of shards must be at least 1');
  });

  it("takes a Kubernetes Indexed Job's JOB_COMPLETION_INDEX (0-based) with the count from auto/N or TURNKIT_SHARD_COUNT", () => {
    expect(shardFromEnvironment({ auto: true, count: 3 }, { JOB_COMPLETION_INDEX: '0' })).toEqual({
      index: 1,
      count: 3,
    });
    expect(shardFromEnvironment({ auto: true }, { JOB_COMPLETION_INDEX: '2', TURNKIT_SHARD_COUNT: '3' })).toEqual({
      index: 3,
      count: 3,
    });
    // A TURNKIT_SHARD left in the environment that says another shard is refused (issue 30 item 15): see below.
  });

  it('takes TURNKIT_SHARD=I/N (a CI matrix)', () => {
    expect(shardFromEnvironment({ auto: true }, { TURNKIT_SHARD: '2/5' })).toEqual({ index: 2, count: 5 });
    expect(shardFromEnvironment({ auto: true, count: 5 }, { TURNKIT_SHARD: '5/5', JOB_COMPLETION_INDEX: '' })).toEqual({
      index: 5,
      count: 5,
    });
  });

  it('says which variable to set when the environment does not give a shard, or contradicts itself', () => {
    expect(fails(() => shardFromEnvironment({ auto: true }, {}))).toBe(
      '--shard auto: no shard in the environment: set JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) with TURNKIT_SHARD_COUNT, or TURNKIT_SHARD=I/N',
    );
    expect(fails(() => shardFromEnvironment({ auto: true }, { JOB_COMPLETION_INDEX: '1' }))).toBe(
      '--shard auto: JOB_COMPLETION_INDEX is 1 but the number of shards is unknown: use --shard auto/N or set TURNKIT_SHARD_COUNT',
    );
    expect(fails(() => shardFromEnvironment({ auto: true, count: 2 }, { JOB_COMPLETION_INDEX: '2' }))).toBe(
      '--shard auto/2: JOB_COMPLETION_INDEX 2 (shard 3) is past the 2 shard(s)',
    );
    expect(fails(() => shardFromEnvironment({ auto: true }, { JOB_COMPLETION_INDEX: 'x' }))).toBe(
      '--shard auto: JOB_COMPLETION_INDEX is "x", not a whole number',
    );
    expect(
      fails(() =>
        shardFromEnvironment({ auto: true, count: 3 }, { JOB_COMPLETION_INDEX: '0', TURNKIT_SHARD_COUNT: '4' }),
      ),
    ).toBe('--shard auto/3: TURNKIT_SHARD_COUNT says 4 shards');
    expect(fails(() => shardFromEnvironment({ auto: true, count: 3 }, { TURNKIT_SHARD: '1/2' }))).toBe(
      '--shard auto/3: TURNKIT_SHARD=1/2 is of 2 shards',
    );
    expect(fails(() => shardFromEnvironment({ auto: true }, { TURNKIT_SHARD: '4/3' }))).toBe(
      '--shard auto: TURNKIT_SHARD=4/3: the shard must be between 1 and 3',
    );
  });

  it('refuses JOB_COMPLETION_INDEX and TURNKIT_SHARD that disagree, and shard numbers past 2^53, instead of rounding', () => {
    expect(
      fails(() => shardFromEnvironment({ auto: true, count: 3 }, { JOB_COMPLETION_INDEX: '0', TURNKIT_SHARD: '2/3' })),
    ).toBe('--shard auto/3: JOB_COMPLETION_INDEX 0 (shard 1/3) and TURNKIT_SHARD=2/3 disagree: unset one');
    // Agreeing, both may be set.
    expect(shardFromEnvironment({ auto: true, count: 3 }, { JOB_COMPLETION_INDEX: '1', TURNKIT_SHARD: '2/3' })).toEqual(
      { index: 2, count: 3 },
    );
    expect(fails(() => parseAutoShard('auto/9007199254740993'))).toBe(
      '--shard auto/9007199254740993: a shard count past 9007199254740991 is not exact',
    );
    expect(fails(() => shardFromEnvironment({ auto: true }, { TURNKIT_SHARD: '1/9007199254740993' }))).toBe(
      '--shard auto: TURNKIT_SHARD=1/9007199254740993: a shard number past 9007199254740991 is not exact',
    );
    expect(
      fails(() =>
        shardFromEnvironment({ auto: true }, { JOB_COMPLETION_INDEX: '0', TURNKIT_SHARD_COUNT: '9007199254740993' }),
      ),
    ).toBe('--shard auto: a shard number past 9007199254740991 is not exact');
  });

  it("names a shard's run from TURNKIT_RUN_ID, else GitHub's run id and attempt", () => {
    expect(shardRunName({ TURNKIT_RUN_ID: 'eval-42', GITHUB_RUN_ID: '9' })).toBe('eval-42');
    expect(shardRunName({ GITHUB_RUN_ID: '9', GITHUB_RUN_ATTEMPT: '2' })).toBe('gh-9-2');
    expect(shardRunName({})).toBeUndefined();
    expect(fails(() => shardRunName({ TURNKIT_RUN_ID: '../x' }))).toMatch(/^TURNKIT_RUN_ID "\.\.\/x": a run name is/);
  });
});
