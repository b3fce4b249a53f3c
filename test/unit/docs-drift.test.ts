import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generatedPages } from '../../scripts/docs/pages.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the generated reference pages', () => {
  it('equal what the code generates (run npm run docs after changing a command, an option or the config)', async () => {
    for (const [path, text] of await generatedPages()) {
      expect(await readFile(join(ROOT, path), 'utf8'), `${path} is out of date: run npm run docs`).toBe(text);
    }
  });
});
