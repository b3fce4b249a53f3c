import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../helpers/test-db.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { runCli } from '../helpers/cli.js';
import { runQuestion } from '../../src/app/run-question.js';
import { runFailure } from '../../src/pipeline/run-outcome.js';
import { shownPath } from '../../src/util/shown-path.js';

// SUTs that fail on every rep in each way a SUT can: the run must not pass for a finished one.
const FAILING = {
  exits: {
    script: '#!/bin/sh\ncat > /dev/null\necho broken >&2\nexit 3\n',
    first: 'base rep 1: sut: exit: exited with 3',
  },
  hangs: {
    script: '#!/bin/sh\ncat > /dev/null\nexec sleep 60\n',
    first: 'base rep 1: sut: timeout: no answer within 1 s',
  },
  floods: {
    script: '#!/bin/sh\ncat > /dev/null\nexec yes flood\n',
    first: 'base rep 1: sut: output-too-large: stdout passed 131072 bytes',
  },
} as const;

describe.each(BACKENDS)('SUT faults on %s', (backend) => {
  let p: FaultProject;
  const databaseUrl = (): string | undefined => p.t.databaseUrl;

  beforeAll(async () => {
    p = await faultProject(backend);
  });
  afterAll(async () => p?.t.cleanup());

  it.each(Object.keys(FAILING) as (keyof typeof FAILING)[])(
    'a SUT that %s on every rep: the run fails with the count and the first cause',
    async (kind) => {
      const question = await p.question(kind, FAILING[kind].script, { reps: 2, timeout: 1 });
      const before = await tableChecksums(p.t.db);
      const result = await runQuestion({ question, cwd: p.t.dir, databaseUrl: databaseUrl() });
      expect(result).toMatchObject({
        status: 'complete',
        total: 2,
        errors: 2,
        pending: 0,
        firstError: FAILING[kind].first,
      });
      const failure = runFailure(result, question);
      expect(failure?.message).toBe(
        `${shownPath(result.dir)}: all 2 rep(s) errored, so there is nothing to mark (first: ${FAILING[kind].first}); fix the SUT, then: turnkit run ${question} --resume ${shownPath(result.dir)}`,
      );
      expect(await tableChecksums(p.t.db)).toEqual(before);
      expect(await registryCounts(p.t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    },
  );

  it('a SUT that fails on some reps only: the run succeeds, the errors are marked', async () => {
    const question = await p.question(
      'some',
      '#!/bin/sh\ncat > /dev/null\n[ "$TURNKIT_REP" = 1 ] && exit 3\necho fine\n',
      { reps: 2 },
    );
    const result = await runQuestion({ question, cwd: p.t.dir, databaseUrl: databaseUrl() });
    expect(result).toMatchObject({ total: 2, errors: 1, firstError: 'base rep 1: sut: exit: exited with 3' });
    expect(runFailure(result, question)).toBeUndefined();
  });
});

// The exit code is what only a process shows: once, on the embedded database.
describe('turnkit run, every rep errored', () => {
  let p: FaultProject;
  beforeAll(async () => {
    p = await faultProject('embedded');
  });
  afterAll(async () => p?.t.cleanup());

  it('turnkit run exits 1 with one line when every rep errored', async () => {
    const question = await p.question('cli', FAILING.exits.script, { reps: 2 });
    const cli = await runCli(['run', question], { cwd: p.t.dir });
    expect(cli.code).toBe(1);
    const lines = cli.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(
      /^runs\/cli\/\S+: all 2 rep\(s\) errored, so there is nothing to mark \(first: base rep 1: sut: exit: exited with 3\); fix the SUT, then: turnkit run questions\/cli.yaml --resume runs\/cli\/\S+$/,
    );
    expect(cli.stdout).not.toContain('mark the reps');
  });
});
