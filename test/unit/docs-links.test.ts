import { readFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { glob } from 'tinyglobby';
import { afterAll, describe, expect, it } from 'vitest';
import { anchorsOf, deadLinks, linksOf } from '../../scripts/docs/markdown-links.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(file, 'utf8');

describe('links between the documentation pages', () => {
  it('lead to files that exist and to headings those pages have', async () => {
    const pages = await glob(['README.md', 'CONTRIBUTING.md', 'docs/**/*.md'], { cwd: ROOT, absolute: true });
    expect(pages.length).toBeGreaterThan(10);
    const dead = deadLinks(pages, read, ROOT).map(
      (link) => `${link.file}:${link.line}: ${link.target}: ${link.reason}`,
    );
    expect(dead).toEqual([]);
  });
});

describe('the documentation index', () => {
  it('links every page under docs/ from docs/README.md, and the README stays short', async () => {
    const pages = await glob(['docs/**/*.md'], { cwd: ROOT, ignore: ['docs/README.md'] });
    const index = join(ROOT, 'docs', 'README.md');
    const linked = new Set(
      linksOf(read(index)).map((link) => relative(ROOT, resolve(dirname(index), link.target.split('#')[0]!))),
    );
    expect(pages.filter((page) => !linked.has(page)).sort()).toEqual([]);
    expect(read(join(ROOT, 'README.md')).split('\n').length).toBeLessThanOrEqual(250);
  });
});

describe('the link checker', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('slugs headings as GitHub does', () => {
    const anchors = anchorsOf(
      "# Use turnkit in your game's project\n## `turnkit run` --resume\n## Run\n## Run\n```\n# not a heading\n```\n",
    );
    expect([...anchors]).toEqual(['use-turnkit-in-your-games-project', 'turnkit-run---resume', 'run', 'run-1']);
  });

  it('ignores links in code and finds the rest', () => {
    const links = linksOf('see [a](a.md) and `[b](b.md)`\n```\n[c](c.md)\n```\n![pic](img.png "title")\n');
    expect(links).toEqual([
      { line: 1, target: 'a.md' },
      { line: 5, target: 'img.png' },
    ]);
  });

  it('reports a missing file, a missing anchor and an anchor in a page of its own', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'turnkit-links-'));
    dirs.push(dir);
    await mkdir(join(dir, 'docs'));
    await writeFile(join(dir, 'docs', 'b.md'), '# Bee\n## Two words\n');
    await writeFile(
      join(dir, 'a.md'),
      '# A\n[ok](docs/b.md#two-words) [gone](docs/c.md) [nope](docs/b.md#three) [self](#a) [here](#missing)\n[web](https://example.com/x#y)\n',
    );
    const dead = deadLinks([join(dir, 'a.md')], read, dir);
    expect(dead.map((link) => [link.line, link.target])).toEqual([
      [2, 'docs/c.md'],
      [2, 'docs/b.md#three'],
      [2, '#missing'],
    ]);
    expect(dead[1]!.reason).toBe('docs/b.md has no heading with the anchor #three');
  });
});
