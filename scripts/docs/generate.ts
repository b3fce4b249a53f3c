// npm run docs — regenerates the reference pages that come from the code; test/unit/docs-drift.test.ts fails when
// a committed page differs from what this would write.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedPages } from './pages.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
for (const [path, text] of await generatedPages()) {
  await mkdir(dirname(join(ROOT, path)), { recursive: true });
  await writeFile(join(ROOT, path), text);
  console.log(`wrote ${path}`);
}
