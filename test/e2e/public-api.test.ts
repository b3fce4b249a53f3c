import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The public surface is a committed list: a change to what `turnkit` or `turnkit/testing` exports is a visible diff
// of test/public-api.txt. The built package is imported by its name, through package.json's exports, from a folder
// outside the repository whose node_modules/turnkit is the repository.
const ROOT = resolve(import.meta.dirname, '../..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'turnkit-public-api-'));
  await mkdir(join(dir, 'node_modules'));
  await symlink(ROOT, join(dir, 'node_modules', 'turnkit'), 'dir');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const exportsOf = (specifier: string): string[] =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m).sort()));`,
      ],
      { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
    ),
  ) as string[];

describe('the public API', () => {
  it('is exactly the committed list of names, for turnkit and turnkit/testing', async () => {
    const listed = (await readFile(join(ROOT, 'test/public-api.txt'), 'utf8'))
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    const actual = [
      ...exportsOf('turnkit').map((name) => `turnkit: ${name}`),
      ...exportsOf('turnkit/testing').map((name) => `turnkit/testing: ${name}`),
    ];
    expect(actual).toEqual(listed);
    // A curated surface: about 40 values (types are not counted: they cost nothing at run time).
    expect(actual.filter((line) => line.startsWith('turnkit: ')).length).toBeLessThanOrEqual(40);
  });

  it('gives every value of src/index.ts a doc comment with an @example', async () => {
    const source = await readFile(join(ROOT, 'src/index.ts'), 'utf8');
    const statements = [...source.matchAll(/(\/\*\*(?:(?!\*\/)[\s\S])*\*\/\s*)?export \{([^}]*)\} from/g)];
    expect(statements.length).toBeGreaterThan(20);
    const undocumented = statements.filter((match) => !match[1]?.includes('@example')).map((match) => match[2]!.trim());
    expect(undocumented).toEqual([]);
  });
});
