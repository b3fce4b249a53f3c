import { execFile, spawn } from 'node:child_process';
import { chmod, cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { BIN } from '../helpers/cli.js';
import { sampleProject } from '../helpers/sample-project.js';

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

// The order a person would try them in: each command's examples after those whose output it reads.
const ORDER = [
  'db start',
  'db url',
  'db migrate',
  'db stop',
  'sample',
  'capture',
  'show',
  'verify',
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
  'agree',
  'init',
  'edit',
  'mark',
  'view',
  'demo',
];

const sh = promisify(execFile);

describe("every command's --help examples", () => {
  let examples: Map<string, string[]>;
  let project: string;
  let shimDir: string;

  beforeAll(async () => {
    examples = await helpExamples();
    project = await sampleProject('turnkit-help-examples-');
    // `turnkit` on PATH is the built binary, so the lines run exactly as printed.
    shimDir = await mkdtemp(join(tmpdir(), 'turnkit-shim-'));
    await writeFile(join(shimDir, 'turnkit'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    await chmod(join(shimDir, 'turnkit'), 0o755);
  }, 300_000);
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
    if (shimDir) await rm(shimDir, { recursive: true, force: true });
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
    const env = { ...process.env, PATH: `${shimDir}:${process.env.PATH}`, DATABASE_URL: '', CI: '' };
    const runLine = async (line: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> => {
      try {
        const { stdout, stderr } = await sh('sh', ['-c', line], { cwd, env, maxBuffer: 64 * 1024 * 1024 });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as { code?: number; stdout?: string; stderr?: string };
        return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
      }
    };
    const runs = async (): Promise<string[]> => (await readdir(join(project, 'runs', 'places'))).sort();
    const fill: Record<string, string> = {};
    let stopped: Promise<number | null> = Promise.resolve(null);
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
        if (name === 'init') {
          // init writes a project: each line in an empty folder of its own over the sample game's database.
          cwd = await mkdtemp(join(project, 'init-'));
          await cp(inject('pgdataSampleTemplate'), join(cwd, '.turnkit', 'pgdata'), { recursive: true });
        }
        if (name === 'db start') {
          // It serves until stopped: in the background, until db url has printed its URL and db stop has stopped it.
          const server = spawn('sh', ['-c', filled], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
          let printed = '';
          server.stdout.on('data', (chunk) => (printed += chunk));
          const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
          for (let i = 0; i < 1200 && !/postgres(ql)?:\/\//.test(printed); i++)
            await new Promise((r) => setTimeout(r, 100));
          expect(printed, filled).toMatch(/postgres(ql)?:\/\//);
          stopped = exited;
          ran.push(line);
          continue;
        }
        const before = name === 'run' ? await runs().catch(() => []) : [];
        const result = await runLine(filled, cwd);
        expect(result.code, `${filled}\n${result.stderr}\n${result.stdout.slice(0, 2000)}`).toBe(0);
        ran.push(line);
        // Stopped by SIGTERM, which the server's handler answers by closing the database and exiting 128 + 15.
        if (name === 'db stop') expect(await stopped, 'db start exits once db stop asked it to').toBe(143);
        if (name === 'seed' && fill.KEY === undefined) fill.KEY = /\bkey=(\S+)/.exec(result.stdout)![1]!;
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
    expect(Object.keys(fill).sort()).toEqual(['KEY', 'STAMP', 'STAMP-1', 'STAMP-2']);
  }, 900_000);
});
