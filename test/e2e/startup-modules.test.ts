import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { makeReportRun } from '../helpers/report-run.js';

const TRACE_HOOK = fileURLToPath(new URL('../helpers/module-trace.mjs', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));

// What a command that does not use them must not load: each costs hundreds of modules at every start.
const HEAVY = ['playwright-core', 'ink', 'react', 'openai', '@anthropic-ai/sdk', 'kysely', 'tsx', 'esbuild'];

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'turnkit-startup-'));
  await cp(join(REPO, 'fixtures/meridian-turn-23.json'), join(dir, 'fixture.json'));
  await makeReportRun(join(dir, 'run'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the binary with the module trace on and returns the packages it loaded from node_modules. */
async function packagesLoaded(args: string[]): Promise<Set<string>> {
  const trace = join(dir, `trace-${args.join('-').replace(/\W+/g, '_')}.txt`);
  const result = spawnSync(process.execPath, ['--import', TRACE_HOOK, BIN, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '', TURNKIT_MODULE_TRACE: trace },
  });
  expect(result.status, result.stderr).toBe(0);
  const urls = (await readFile(trace, 'utf8')).split('\n').filter(Boolean);
  const packages = new Set<string>();
  for (const url of urls) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match) packages.add(match[1]!);
  }
  return packages;
}

describe('start-up: a command loads only what it uses', () => {
  const commands = [
    ['--version'],
    ['--help'],
    ['report', '--help'],
    ['run', '--help'],
    ['capture', '--help'],
    ['mark', '--help'],
    ['view', '--help'],
  ];
  it.each(commands.map((args) => [args.join(' '), args] as const))(
    'turnkit %s loads no database, terminal-UI, SDK or TypeScript loader package',
    async (_shown, args) => {
      const packages = await packagesLoaded([...args]);
      // The trace works: commander is what every command needs.
      expect(packages.has('commander')).toBe(true);
      expect(HEAVY.filter((name) => packages.has(name))).toEqual([]);
    },
  );

  it('turnkit report RUN reads the run without zod, pg or the SUT kinds (the manifest by its lean shape)', async () => {
    const packages = await packagesLoaded(['report', 'run', '--marks', 'marks.checks.csv']);
    expect(packages.has('csv-parse')).toBe(true);
    // Nor csv-stringify (marks are read, not written) or jsonc-parser (only for a file JSON.parse refuses).
    expect([...HEAVY, 'zod', 'pg', 'csv-stringify', 'jsonc-parser'].filter((name) => packages.has(name))).toEqual([]);
  });

  it('turnkit show FIXTURE reads the file without the database, ink or the SDKs', async () => {
    const packages = await packagesLoaded(['show', 'fixture.json', '--json']);
    expect(HEAVY.filter((name) => packages.has(name))).toEqual([]);
  });
});
