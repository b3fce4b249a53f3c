import { expect, it } from 'vitest';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The system programs some tests drive, none of them from npm: each test that needs one runs when it is here, is
 * skipped with a one-line notice naming what to install when it is not (on a machine with only Node, `npm test`
 * passes), and is required where `.ci/run` says so (its TURNKIT_REQUIRE_* variable) or `CI` is set: a missing
 * program then fails a test instead of passing quietly. test/unit/system-programs.test.ts checks that every program
 * test/ runs is either here, from npm, or one of the basics every machine has.
 */
export const SYSTEM_PROGRAMS = {
  tmux: { install: 'apt-get install -y tmux', require: 'TURNKIT_REQUIRE_TMUX', tests: 'terminal (tmux) tests' },
  chromium: { install: 'apt-get install -y chromium', require: 'TURNKIT_REQUIRE_BROWSER', tests: 'browser tests' },
  psql: {
    install: 'apt-get install -y postgresql-client',
    require: 'TURNKIT_REQUIRE_PSQL',
    tests: 'tests whose SUT is a shell script reading its campaign with psql',
  },
  python3: {
    install: 'apt-get install -y python3',
    require: 'TURNKIT_REQUIRE_PYTHON',
    tests: 'Python SUT stub test',
  },
  'postgres-server': {
    install: 'apt-get install -y postgresql-15',
    require: 'TURNKIT_REQUIRE_PRIVATE_POSTGRES',
    tests: 'Postgres restart test (a private cluster from initdb and pg_ctl)',
  },
} as const;

/** A system program some tests need. */
export type SystemProgram = keyof typeof SYSTEM_PROGRAMS;

/** Whether an executable of this name is on the PATH (or, given a path, is that executable). */
export function onPath(name: string): boolean {
  const candidates = name.includes('/')
    ? [name]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter((dir) => dir !== '')
        .map((dir) => join(dir, name));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether a missing program fails its tests here: its TURNKIT_REQUIRE_* is 1, or CI is set. */
export function programRequired(program: SystemProgram): boolean {
  const ci = process.env.CI;
  return process.env[SYSTEM_PROGRAMS[program].require] === '1' || (ci !== undefined && ci !== '' && ci !== 'false');
}

const told = new Set<SystemProgram>();

/**
 * Whether a program is here (`found`, by default looked up on the PATH) and whether its absence is a failure. When
 * it is missing, says once per test file which tests are skipped and what to install.
 */
export function systemProgram(
  program: SystemProgram,
  found: boolean = onPath(program),
  missing = `${program} is not on the PATH`,
): { found: boolean; required: boolean } {
  const required = programRequired(program);
  const { install, require, tests } = SYSTEM_PROGRAMS[program];
  if (!found && !told.has(program)) {
    told.add(program);
    console.warn(
      `${tests} skipped: ${missing} (${install}${required ? `; ${require}=1 or CI makes this a failure` : ''})`,
    );
  }
  return { found, required };
}

/** A test that fails where the program is required but missing (CI), and passes where it is here or optional. */
export function itHasProgram(program: SystemProgram, here: { found: boolean; required: boolean }): void {
  it(`has ${program} for the ${SYSTEM_PROGRAMS[program].tests} (required on CI)`, () => {
    expect(here.found || !here.required, `${program} is missing: ${SYSTEM_PROGRAMS[program].install}`).toBe(true);
  });
}
