import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedBefore } from '../helpers/static-imports.js';

const SRC = resolve(import.meta.dirname, '../../src');

// `turnkit capture` once loaded @faker-js/faker's index (every locale: 81 files, 3.9 MB of JavaScript, several times
// a bare `node -e 0` of CPU) for a scrub rule's fakes. Faker now loads only when a rule needs fakes, and then from its
// English entry point (4 files); zxcvbn's word lists only when the scrub key is checked. This walks the static
// imports behind the command, as report-lean-imports.test.ts does, and every dynamic import of faker in the sources.

// The capture command's module, and what its action imports (cli/commands/capture.ts).
const CAPTURE = ['cli/commands/capture.ts', 'fixture/capture/capture-fixtures.ts', 'app/command-context.ts'];

/** Every .ts file under src/, as a path from src/. */
function sources(dir = ''): string[] {
  return readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('turnkit capture loads faker and the word lists only when it uses them', () => {
  it('finds the capture command, the scrubber and the config loader', () => {
    const { files, packages } = loadedBefore(SRC, CAPTURE);
    expect(files.has('fixture/scrub/scrubber.ts')).toBe(true);
    expect(files.has('fixture/scrub/fake-values.ts')).toBe(true);
    expect(files.has('config/load.ts')).toBe(true);
    expect(packages.has('commander')).toBe(true);
  });

  it('imports neither faker nor zxcvbn statically, nor the embedded database or a SUT kind', () => {
    const { files, packages } = loadedBefore(SRC, CAPTURE);
    expect(
      [...packages].filter((name) => ['@faker-js/faker', '@zxcvbn-ts/language-common', 'kysely'].includes(name)),
    ).toEqual([]);
    expect([...files].filter((file) => file.startsWith('sut/'))).toEqual([]);
  });

  it("loads faker only from its English entry point, never the package's index", () => {
    const imports = sources().flatMap((file) =>
      [...readFileSync(join(SRC, file), 'utf8').matchAll(/import\(\s*'(@faker-js\/faker[^']*)'\s*\)/g)].map(
        (match) => `${file}: ${match[1]}`,
      ),
    );
    expect(imports).toEqual(['fixture/scrub/fake-values.ts: @faker-js/faker/locale/en']);
  });
});
