import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { runCli } from '../helpers/cli.js';

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
  /** A string that must appear nowhere in the output (a password). */
  secret?: string;
}

const CORPUS = fileURLToPath(new URL('../bad-inputs/', import.meta.url));
const names = (await readdir(CORPUS)).filter((name) => name.endsWith('.json')).sort();

describe('the bad-input corpus', () => {
  let project: string;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-bad-'));
    await cp(inject('pgdataTemplate'), join(project, '.turnkit', 'pgdata'), { recursive: true });
    const made = await runCli(['sample', '--turns', '40'], { cwd: project });
    expect(made).toMatchObject({ code: 0, stdout: '1\n' });
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it.each(names)('%s', async (name) => {
    const spec = JSON.parse(await readFile(join(CORPUS, name), 'utf8')) as BadInputCase;
    const caseDir = `cases/${name.replace(/\.json$/, '')}`;
    const fill = (text: string): string => text.replaceAll('{case}', caseDir);
    await mkdir(join(project, caseDir), { recursive: true });
    for (const [file, content] of Object.entries(spec.files ?? {})) {
      await mkdir(dirname(join(project, caseDir, file)), { recursive: true });
      await writeFile(join(project, caseDir, file), content);
    }
    const result = await runCli(spec.args.map(fill), { cwd: project });
    const lines = result.stderr.trimEnd().split('\n');
    expect(result.code, result.stderr).toBe(spec.exitCode);
    if (spec.stderrPrefix) expect(lines[0]!.startsWith(fill(spec.stderr)), lines[0]).toBe(true);
    else expect(lines[0]).toBe(fill(spec.stderr));
    // One line for a failure; usage errors may add commander's "run with --help" hint.
    expect(lines.length, result.stderr).toBe(spec.exitCode === 2 ? 2 : 1);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    for (const file of spec.unchanged ?? []) {
      expect(await readFile(join(project, caseDir, file), 'utf8')).toBe(spec.files![file]);
    }
    if (spec.secret) expect(result.stdout + result.stderr).not.toContain(spec.secret);
  });
});
