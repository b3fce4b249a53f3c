import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { exampleLines, wrongExamples } from '../../scripts/docs/cli-examples.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the turnkit command lines in the documentation', () => {
  it('name commands and options the CLI has', async () => {
    const pages = await glob(['README.md', 'CONTRIBUTING.md', 'docs/**/*.md'], {
      cwd: ROOT,
      ignore: ['docs/reference/cli.md'],
    });
    let checked = 0;
    const wrong: string[] = [];
    for (const page of pages.sort()) {
      const text = await readFile(`${ROOT}${page}`, 'utf8');
      checked += exampleLines(text).length;
      for (const example of await wrongExamples(text))
        wrong.push(`${page}:${example.line}: ${example.example}: ${example.reason}`);
    }
    expect(checked).toBeGreaterThan(40);
    expect(wrong).toEqual([]);
  });

  it('finds a renamed option, an unknown command and a command line inside $( )', async () => {
    const page = [
      'text: npx turnkit nothing here is code',
      '```sh',
      '$ npx turnkit capture --campaign "$(npx turnkit sample --turns 40 --tunrs 3)" --turn 23   # a comment --nope',
      'npx turnkit captur --campaign 1',
      'npx turnkit db start',
      'npx turnkit db',
      '```',
    ].join('\n');
    expect(exampleLines(page).map((example) => example.args[0])).toEqual(['capture', 'sample', 'captur', 'db', 'db']);
    expect((await wrongExamples(page)).map((example) => [example.line, example.reason])).toEqual([
      [3, 'turnkit sample has no option --tunrs'],
      [4, 'turnkit has no command "captur"'],
      [6, 'turnkit db needs a subcommand'],
    ]);
  });
});
