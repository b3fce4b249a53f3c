import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distinctModels, mergedModels, sutFiles } from '../../src/pipeline/run-provenance.js';
import { reportedModel } from '../../src/model/model-client.js';
import { sha256 } from '../../src/util/sha256.js';
import type { SutConfig } from '../../src/question/question-format.js';

describe('the files a SUT names', () => {
  let project: string;
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-sut-files-'));
    await mkdir(join(project, 'game/prompts'), { recursive: true });
    await writeFile(join(project, 'game/my sut.mjs'), 'console.log(1)\n');
    await writeFile(join(project, 'game/prompts/gm.md'), 'You are the GM.\n');
    await writeFile(join(project, 'module.mjs'), 'export default () => "ok";\n');
  });
  afterAll(async () => rm(project, { recursive: true, force: true }));

  it("takes a command's words that are files, relative to its cwd, once each, with an option's value", async () => {
    const sut = {
      type: 'command',
      command: `node "my sut.mjs" --prompt=prompts/gm.md prompts missing.md 'my sut.mjs'`,
      cwd: 'game',
      timeout: 30,
      maxOutput: 1000,
    } as SutConfig;
    expect(await sutFiles(project, sut)).toEqual([
      { path: 'game/my sut.mjs', sha256: sha256('console.log(1)\n') },
      { path: 'game/prompts/gm.md', sha256: sha256('You are the GM.\n') },
    ]);
  });

  it("takes a module SUT's file, and nothing of a kind that names none", async () => {
    const module = { type: 'module', path: 'module.mjs', export: 'default', timeout: 30, maxOutput: 1000 } as SutConfig;
    expect(await sutFiles(project, module)).toEqual([
      { path: 'module.mjs', sha256: sha256('export default () => "ok";\n') },
    ]);
    const http = { type: 'http', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' } as unknown as SutConfig;
    expect(await sutFiles(project, http)).toEqual([]);
  });
});

describe('reported model ids', () => {
  it('keeps a printable id of at most 200 characters, trimmed, and nothing else', () => {
    expect(reportedModel(' gpt-4o-2024-08-06 ')).toBe('gpt-4o-2024-08-06');
    expect(reportedModel('claude\u001b[31m')).toBeUndefined();
    expect(reportedModel('a'.repeat(201))).toBeUndefined();
    expect(reportedModel('a'.repeat(200))).toBe('a'.repeat(200));
    expect(reportedModel('')).toBeUndefined();
    expect(reportedModel(42)).toBeUndefined();
    expect(reportedModel(undefined)).toBeUndefined();
  });

  it('lists each id once in the order first seen, and merges shards per SUT and per judge', () => {
    expect(distinctModels([['b', 'a'], undefined, ['a', 'c']])).toEqual(['b', 'a', 'c']);
    expect(
      mergedModels([
        { sut: ['m-1'], judges: { 'judge-x': ['x-1'] } },
        undefined,
        { sut: ['m-2', 'm-1'], judges: { 'judge-x': ['x-2'], 'judge-y': ['y-1'] } },
      ]),
    ).toEqual({ sut: ['m-1', 'm-2'], judges: { 'judge-x': ['x-1', 'x-2'], 'judge-y': ['y-1'] } });
    expect(mergedModels([undefined, {}])).toBeUndefined();
  });
});
