import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, type CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { openEmbedded, type EmbeddedServer } from '../../src/db/embedded/embedded-server.js';
import { copyEmbedded } from '../helpers/embedded-copy.js';

/** One case of the bad-input corpus: a command, the files it needs, and the one-line error it must print. */
interface BadInputCase {
  description: string;
  args: string[];
  files?: Record<string, string>;
  exitCode: number;
  stderr: string;
  stderrPrefix?: boolean;
  /** Files (in the case folder) whose bytes must survive the failed command. */
  unchanged?: string[];
  /** Environment variables the command sees (a CI engine's, such as JOB_COMPLETION_INDEX). */
  env?: Record<string, string>;
  /** A string that must appear nowhere in the output (a password). */
  secret?: string;
  /** Files given as base64, for bytes no JSON string writes as UTF-8 (a UTF-16 file and its byte-order mark). */
  bytes?: Record<string, string>;
  /** A file made from a committed fixture: a table renamed and/or values set at JSON paths. */
  /** `replace`: text replacements in the written file, for what JSON.stringify cannot write (1e400). */
  derive?: {
    from: string;
    to: string;
    renameTable?: [string, string];
    set?: [(string | number)[], unknown][];
    replace?: [string, string][];
  };
}

const REPO = fileURLToPath(new URL('../..', import.meta.url));

async function deriveFile(spec: NonNullable<BadInputCase['derive']>, dir: string): Promise<void> {
  const document = JSON.parse(await readFile(join(REPO, spec.from), 'utf8'));
  if (spec.renameTable) {
    const [from, to] = spec.renameTable;
    document.tables[to] = document.tables[from];
    delete document.tables[from];
  }
  for (const [path, value] of spec.set ?? []) {
    let node = document;
    for (const key of path.slice(0, -1)) node = node[key];
    node[path.at(-1)!] = value;
  }
  let text = `${JSON.stringify(document, null, 2)}\n`;
  for (const [from, to] of spec.replace ?? []) text = text.replace(from, to);
  await writeFile(join(dir, spec.to), text);
}

const CORPUS = fileURLToPath(new URL('../bad-inputs', import.meta.url));
const names = (await readdir(CORPUS)).filter((name) => name.endsWith('.json')).sort();

// These go through the built binary as well: its exit code and stderr must be the ones run() gives in process.
const THROUGH_THE_BINARY = new Set([
  'capture-no-turn.json',
  'fixture-json-syntax.json',
  'seed-schema-drift.json',
  'database-unreachable.json',
]);

describe('the bad-input corpus', () => {
  let project: string;
  let server: EmbeddedServer;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-bad-'));
    await copyEmbedded(project, 'empty');
    const made = await runCli(['sample', '--turns', '40'], { cwd: project });
    expect(made).toMatchObject({ code: 0, stdout: '1\n' });
    // The cases run in this process (run(argv, output), as bin.js calls it); the embedded database stays open here
    // for all of them, so each command joins it as another turnkit process would instead of starting it again.
    server = await openEmbedded({ stateDir: join(project, '.turnkit', 'postgres'), port: 0, uid: process.getuid?.() });
  });
  afterAll(async () => {
    await server?.close();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it.each(names)('%s', async (name) => {
    const spec = JSON.parse(await readFile(join(CORPUS, name), 'utf8')) as BadInputCase;
    const caseDir = `cases/${name.replace(/\.json$/, '')}`;
    const fill = (text: string): string => text.replaceAll('{case}', caseDir);
    await mkdir(join(project, caseDir), { recursive: true });
    for (const [file, content] of Object.entries(spec.files ?? {})) {
      await mkdir(dirname(join(project, caseDir, file)), { recursive: true });
      // "{case}" in a file's text is the case folder too (a question names its fixtures relative to the project).
      await writeFile(join(project, caseDir, file), fill(content));
    }
    for (const [file, base64] of Object.entries(spec.bytes ?? {}))
      await writeFile(join(project, caseDir, file), Buffer.from(base64, 'base64'));
    if (spec.derive) await deriveFile(spec.derive, join(project, caseDir));
    const result = await runInProcess(spec.args.map(fill), { cwd: project, ...(spec.env ? { env: spec.env } : {}) });
    if (THROUGH_THE_BINARY.has(name)) expect(await runCli(spec.args.map(fill), { cwd: project })).toEqual(result);
    check(spec, result, fill);
    for (const file of spec.unchanged ?? []) {
      expect(await readFile(join(project, caseDir, file), 'utf8')).toBe(spec.files![file]);
    }
  });

  it('runs some cases through the binary too', () => {
    expect([...THROUGH_THE_BINARY].filter((name) => !names.includes(name))).toEqual([]);
  });
});

/** The case's exit code, its one line on stderr (no stack trace), and no secret anywhere in the output. */
function check(spec: BadInputCase, result: CliResult, fill: (text: string) => string): void {
  const lines = result.stderr.trimEnd().split('\n');
  expect(result.code, result.stderr).toBe(spec.exitCode);
  if (spec.stderrPrefix) expect(lines[0]!.startsWith(fill(spec.stderr)), lines[0]).toBe(true);
  else expect(lines[0]).toBe(fill(spec.stderr));
  // One line for a failure; commander's usage errors add its "run with --help" hint, and nothing else may follow.
  expect(lines.slice(1), result.stderr).toEqual(
    spec.exitCode === 2 && lines.length === 2 ? ['(run with --help for usage)'] : [],
  );
  expect(result.stderr).not.toMatch(/^\s+at /m);
  if (spec.secret) expect(result.stdout + result.stderr).not.toContain(spec.secret);
}
