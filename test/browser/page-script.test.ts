import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, renderPage } from '../../src/view/html-page.js';
import { PAGE_SCRIPT_FILE, pageScript } from '../../src/view/page-script.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SOURCES = join(REPO, 'src/view/client/browser');

// Code only: comments say what they like.
const codeOf = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

async function sources(): Promise<[string, string][]> {
  const names = (await readdir(SOURCES)).filter((name) => name.endsWith('.ts')).sort();
  return Promise.all(
    names.map(async (name) => [name, codeOf(await readFile(join(SOURCES, name), 'utf8'))] as [string, string]),
  );
}

// The page script is TypeScript under src/view/client/browser/, checked by tsc (tsconfig.client.json) and biome,
// bundled by scripts/build-client.mjs; these hold what no type-check says: text never goes in as markup, the bundle
// holds turnkit's own code alone, and the page allows by hash exactly the script it embeds.
describe('the page script', () => {
  let dir: string;
  let built: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-page-script-'));
    await promisify(execFile)(process.execPath, [join(REPO, 'scripts/build-client.mjs'), join(dir, 'page-script.js')]);
    built = await readFile(join(dir, 'page-script.js'), 'utf8');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('never puts text in as markup: no innerHTML, outerHTML, insertAdjacentHTML, srcdoc, document.write or eval', async () => {
    const files = await sources();
    expect(files.map(([name]) => name)).toContain('main.ts');
    const offenders = files
      .filter(([, code]) =>
        /\b(innerHTML|outerHTML|insertAdjacentHTML|srcdoc|document\.write|eval|Function)\b/.test(code),
      )
      .map(([name]) => name);
    expect(offenders).toEqual([]);
  });

  // What the modules it imports import in turn is architecture.test.ts's: no Node module and no package either.
  it('imports only modules of src/: no Node module and no package', async () => {
    const outside = (await sources()).flatMap(([name, code]) =>
      [...code.matchAll(/^import (type )?[^;]*? from '([^']+)';/gm)]
        .filter(([, , spec]) => !spec!.startsWith('.') || !resolve(SOURCES, spec!).startsWith(join(REPO, 'src') + sep))
        .map(([, , spec]) => `${name} -> ${spec}`),
    );
    expect(outside).toEqual([]);
  });

  it("is one strict IIFE that names turnkit's sources alone and nothing that ends its <script> element", () => {
    expect(built.startsWith('"use strict";\n(() => {\n')).toBe(true);
    expect(built.trimEnd().endsWith('})();')).toBe(true);
    const bundled = [...built.matchAll(/^ {2}\/\/ (\S+\.ts)$/gm)].map((match) => match[1]!);
    expect(bundled).toContain('src/view/client/browser/main.ts');
    expect(bundled.filter((path) => !path.startsWith('src/'))).toEqual([]);
    expect(built).not.toMatch(/<\/script|<!--/i);
    expect(built).not.toMatch(/\brequire\(|\bprocess\./);
  });

  it('is the one a page embeds, and the page allows it by the hash of the bundled text', () => {
    expect(PAGE_SCRIPT_FILE).toBe(join(REPO, 'dist/client/page-script.js'));
    // The browser tier's global setup bundled the same sources into dist/.
    expect(pageScript()).toBe(built);
    const page = renderPage({ mode: 'static', runs: [] }, 'empty');
    const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
    expect(scripts).toEqual([built]);
    const hash = `'sha256-${createHash('sha256').update(built).digest('base64')}'`;
    expect(contentSecurityPolicy('static')).toContain(`script-src ${hash};`);
    expect(page).toContain(`script-src ${hash};`);
  });
});
