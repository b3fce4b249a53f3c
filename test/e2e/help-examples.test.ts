import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import type { CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { exampleCommand } from '../helpers/example-words.js';
import { unsampledProject } from '../helpers/sample-project.js';

/** Every command's help examples, by its full name (`db url`), as `--help` prints them. */
async function helpExamples(): Promise<Map<string, string[]>> {
  const program = await buildProgram({ out: () => {}, err: () => {} });
  const found = new Map<string, string[]>();
  const walk = (command: Command, prefix: string): void => {
    for (const sub of command.commands) {
      const name = `${prefix}${sub.name()}`;
      if (sub.commands.length > 0) walk(sub, `${name} `);
      else found.set(name, examplesOf(sub));
    }
  };
  walk(program, '');
  return found;
}

function examplesOf(command: Command): string[] {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk), writeErr: () => {} });
  command.outputHelp();
  const after = text.split(/^Examples:\n/m)[1] ?? '';
  return after
    .trimEnd()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.replace(/^ {2}/, ''));
}

// Examples that take the terminal, a browser or a model server, or run for long: what they do is tested where
// those are (edit-terminal, mark-blind-terminal, rebase-terminal, view tests, judge-cli, demo tests).
const NOT_RUN_HERE = [
  /^turnkit (edit|mark|view|demo) /,
  /^turnkit (view|demo)$/,
  / --interactive/,
  / --judge examples\/judge\.yaml/,
];

// The order a person would try them in: each command's examples after those whose output it reads. `db start`
// keeps the project's embedded server running for every example after it, each joining it as another turnkit
// process does, until `db stop` at the end.
const ORDER = [
  'db start',
  'db url',
  'db status',
  'db load',
  'db migrate',
  'sample',
  'capture',
  'show',
  'verify',
  'upgrade',
  'construct',
  'materialize',
  'rebase',
  'seed',
  'teardown',
  'gc',
  'run',
  'merge',
  'judge',
  'report',
  'plan',
  'attribute',
  'agree',
  'init',
  'edit',
  'mark',
  'view',
  'demo',
  'db stop',
];

describe("every command's --help examples", () => {
  let examples: Map<string, string[]>;
  let project: string;

  beforeAll(async () => {
    examples = await helpExamples();
    // No campaign yet: the `sample --turns 40` example makes campaign 1, which the capture examples read.
    project = await unsampledProject('turnkit-help-examples-');
  }, 300_000);
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('exist for every command, each showing the command itself', () => {
    expect([...examples.keys()].sort()).toEqual([...ORDER].sort());
    for (const [name, lines] of examples) {
      expect(lines.length, name).toBeGreaterThan(0);
      expect(
        lines.some((line) => line.startsWith(`turnkit ${name} `) || line === `turnkit ${name}`),
        `${name}: ${lines.join(' | ')}`,
      ).toBe(true);
    }
  });

  it('run as printed in the sample project (STAMP and KEY filled in from what the commands printed)', async () => {
    // Each line runs in this process, as the binary runs it (a process's start-up costs seconds here), split into
    // words as sh would.
    const env = { DATABASE_URL: '', CI: '' };
    // A `> FILE` outside the project lands in the project, beside the files the examples read (not a shared /tmp).
    const redirected = (file: string): string => (isAbsolute(file) ? join(project, 'out', basename(file)) : file);
    const runLine = async (line: string, cwd: string, lineEnv = env): Promise<CliResult> => {
      const { program, args, stdoutTo } = exampleCommand(line);
      const result =
        program === 'echo'
          ? { code: 0, stdout: `${args.join(' ')}\n`, stderr: '' }
          : await runInProcess(args, { cwd, env: lineEnv });
      if (stdoutTo !== undefined) {
        const file = resolve(cwd, redirected(stdoutTo));
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, result.stdout);
        return { ...result, stdout: '' };
      }
      return result;
    };
    const runs = async (): Promise<string[]> => (await readdir(join(project, 'runs', 'places'))).sort();
    const fill: Record<string, string> = {};
    let databaseUrl = '';
    const ran: string[] = [];
    const skipped: string[] = [];
    for (const name of ORDER) {
      for (const line of examples.get(name) ?? []) {
        if (NOT_RUN_HERE.some((pattern) => pattern.test(line))) {
          skipped.push(line);
          continue;
        }
        let filled = line;
        // The longest first: STAMP-1 is not STAMP followed by "-1".
        for (const [placeholder, value] of Object.entries(fill).sort(([a], [b]) => b.length - a.length))
          filled = filled.replaceAll(placeholder, value);
        let cwd = project;
        let lineEnv = env;
        if (name === 'init') {
          // init writes a project: each line in an empty folder of its own, reading the sample game's catalog from
          // the database db start serves, through the DATABASE_URL db url printed (as a game's own database is
          // reached). init over an embedded database of its own is tested in init-sut-stubs and init tests.
          cwd = await mkdtemp(join(project, 'init-'));
          lineEnv = { ...env, DATABASE_URL: databaseUrl };
        }
        // `db load schema.sql`: a schema file of the project's (here one that changes nothing of the sample game).
        if (name === 'db load') await writeFile(join(project, 'schema.sql'), '-- a schema file\nSELECT 1;\n');
        const before = name === 'run' ? await runs().catch(() => []) : [];
        const result = await runLine(filled, cwd, lineEnv);
        expect(result.code, `${filled}\n${result.stderr}\n${result.stdout.slice(0, 2000)}`).toBe(0);
        ran.push(line);
        // db start printed the URL once the server was ready, and kept it running for every line since.
        if (name === 'db start')
          expect(result.stdout, filled).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres\n$/);
        // No command uses it any more: db stop stops it at once.
        if (name === 'db stop') {
          expect(result.stdout, filled).toBe('stopped the embedded database\n');
          expect(existsSync(join(project, '.turnkit', 'postgres', 'data', 'postmaster.pid'))).toBe(false);
        }
        if (name === 'materialize') {
          const written = JSON.parse(await readFile(join(project, 'out', 'deck-fixed.json'), 'utf8'));
          expect(written.format, filled).toMatch(/^turnkit\.fixture\//);
        }
        // The first campaign of the project, which the capture examples name.
        if (name === 'sample' && ran.filter((done) => done.startsWith('turnkit sample')).length === 1)
          expect(result.stdout, filled).toBe('1\n');
        if (name === 'db url') databaseUrl = result.stdout.trim();
        if (name === 'seed' && fill.KEY === undefined) fill.KEY = /\bkey=(\S+)/.exec(result.stdout)![1]!;
        // The attribution the first attribute example made, which --resume names.
        if (name === 'attribute' && fill.ATTRIBUTION === undefined)
          fill.ATTRIBUTION = (await runs()).find((dir) => dir.startsWith('attribute-'))!;
        if (name === 'run') {
          const made = (await runs()).filter((dir) => !before.includes(dir));
          if (line.includes('--shard 1/2')) {
            // Its other half, so that merge has both shards.
            const other = await runLine(filled.replace('--shard 1/2', '--shard 2/2'), cwd);
            expect(other.code, other.stderr).toBe(0);
            const both = (await runs()).filter((dir) => !before.includes(dir));
            fill['STAMP-1'] = both[0]!;
            fill['STAMP-2'] = both[1]!;
          } else if (fill.STAMP === undefined) fill.STAMP = made[0]!;
        }
      }
    }
    // Every example ran but the ones named above; the placeholders were all filled.
    expect(ran.length + skipped.length).toBe([...examples.values()].flat().length);
    expect(skipped.every((line) => NOT_RUN_HERE.some((pattern) => pattern.test(line)))).toBe(true);
    expect(Object.keys(fill).sort()).toEqual(['ATTRIBUTION', 'KEY', 'STAMP', 'STAMP-1', 'STAMP-2']);
  }, 900_000);
});
