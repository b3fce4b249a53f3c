import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeReportRun } from '../helpers/report-run.js';
import { copySampleFiles } from '../helpers/sample-project.js';
import { agree, judgeChecks, materialize, rebase, report, show, type FilesContext } from '../../src/index.js';

// Every file operation of src/index.ts takes its project as an argument: run from the project's folder or from
// another, it reads and writes the same files and says the same things (paths in messages are the project's).
// This file runs in a forked worker (vitest's default pool), where `process.chdir` is allowed.

/** What each operation gives: its result, or its error's message, as JSON. */
async function outcomes(project: FilesContext): Promise<unknown[]> {
  const results: unknown[] = [];
  const take = async (call: () => Promise<unknown>): Promise<void> => {
    try {
      results.push(JSON.parse(JSON.stringify(await call())));
    } catch (error) {
      results.push({ error: (error as Error).message });
    }
  };
  await take(() => show(project, { fixture: 'fixtures/meridian-turn-23.json' }));
  await take(() => show(project, { fixture: 'fixtures/missing.json' }));
  await take(() => materialize(project, { constructed: 'constructed/meridian-turn-23-deck-fixed.json' }));
  await take(() => rebase(project, { constructed: 'constructed/meridian-turn-23-deck-fixed.json' }));
  await take(() => report(project, { dir: 'runs/q/1' }));
  await take(() => report(project, { dir: 'runs/q/none' }));
  await take(() => judgeChecks(project, { dir: 'runs/q/1' }));
  await take(() => agree(project, { a: 'runs/q/1/marks.csv', b: 'runs/q/1/marks.checks.csv' }));
  await take(() => agree(project, { a: 'runs/q/1/marks.csv', b: 'runs/q/1/missing.csv' }));
  return results;
}

/** Every file under a folder with its bytes (what the operations wrote). */
async function filesOf(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries.filter((item) => item.isFile()).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(entry.parentPath, entry.name);
    files[path.slice(dir.length)] = await readFile(path, 'utf8');
  }
  return files;
}

describe('the operations do not depend on the process working folder', () => {
  let root: string;
  const home = process.cwd();
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'turnkit-ops-cwd-'));
  });
  afterAll(async () => {
    process.chdir(home);
    await rm(root, { recursive: true, force: true });
  });

  const projectAt = async (name: string): Promise<string> => {
    const dir = join(root, name);
    await copySampleFiles(dir);
    await makeReportRun(join(dir, 'runs', 'q', '1'));
    return dir;
  };

  it('the same results, messages and files from the project folder and from elsewhere', async () => {
    const inside = await projectAt('inside');
    const outside = await projectAt('outside');
    const elsewhere = await mkdtemp(join(root, 'elsewhere-'));
    // Both copies hold the same files; run the operations in each, once from within, once from another folder.
    process.chdir(inside);
    const fromInside = await outcomes({ paths: { baseDir: inside } });
    process.chdir(elsewhere);
    const fromElsewhere = await outcomes({ paths: { baseDir: outside } });
    process.chdir(home);
    // The projects differ only by their folder's name: the same outcomes once it is named the same.
    const same = (value: unknown, dir: string): string => JSON.stringify(value).split(dir).join('PROJECT');
    expect(same(fromElsewhere, outside)).toBe(same(fromInside, inside));
    // The messages show the project's paths, not ones relative to where the process is.
    expect(fromElsewhere).toContainEqual({ error: expect.stringMatching(/^fixtures\/missing\.json: /) });
    expect(await filesOf(outside)).toEqual(await filesOf(inside));
  });
});
