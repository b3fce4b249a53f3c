import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configKeys } from '../../scripts/docs/config-reference.js';
import { generatedPages } from '../../scripts/docs/pages.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Generated once for the file: the library reference costs a type-check of src/.
let generated: ReturnType<typeof generatedPages> | undefined;
const pagesOnce = () => (generated ??= generatedPages());

describe('the generated reference pages', () => {
  // Generating the library reference type-checks src/ with the TypeScript compiler: seconds on a loaded machine.
  it('equal what the code generates (run npm run docs after changing a command, an option, the config, a bad-input case or an export)', {
    timeout: 120_000,
  }, async () => {
    const pages = await pagesOnce();
    expect([...pages.keys()]).toEqual(
      expect.arrayContaining([
        'docs/reference/cli.md',
        'docs/reference/config.md',
        'docs/reference/exit-codes.md',
        'docs/reference/api.md',
      ]),
    );
    const stale: string[] = [];
    for (const [path, text] of pages) {
      const committed = await readFile(join(ROOT, path), 'utf8').catch(() => undefined);
      if (committed !== text) stale.push(path);
    }
    expect(stale, `out of date: ${stale.join(', ')}; run npm run docs`).toEqual([]);
  });

  it('describe every config key (a key without .describe() in src/config/ is undocumented)', () => {
    const keys = configKeys();
    expect(keys.map((key) => key.path)).toContain('game.turns.order');
    expect(keys.filter((key) => !key.description).map((key) => key.path)).toEqual([]);
  });

  it('list every bad-input case and every export of src/index.ts', async () => {
    const pages = await pagesOnce();
    const catalogue = pages.get('docs/reference/exit-codes.md')!;
    expect(catalogue).toContain('`capture-no-turn.json`');
    const api = pages.get('docs/reference/api.md')!;
    const index = await readFile(join(ROOT, 'src/index.ts'), 'utf8');
    // A spot check independent of the compiler: names the entry point exports by name appear on the page.
    for (const name of ['defineConfig', 'openProject', 'loadFixture']) {
      if (new RegExp(`\\b${name}\\b`).test(index)) expect(api).toContain(`**\`${name}\`**`);
    }
  }, 120_000);
});
