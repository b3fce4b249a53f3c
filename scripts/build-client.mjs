// Part of `npm run build`: the page script of every HTML page turnkit writes or serves. esbuild (a dev dependency)
// bundles the browser code of src/view/client/browser/ (checked by tsconfig.client.json and biome), with the
// browser-safe modules of src/ it imports, into one IIFE, written to dist/client/page-script.js, which the package
// ships and src/view/page-script.ts reads. The browser tests' global setup runs this script too, so that they test
// the sources as they are.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'src');

/** Where the bundle goes: dist/client/page-script.js (src/view/page-script.ts reads it there). */
export const PAGE_SCRIPT_OUT = join(ROOT, 'dist', 'client', 'page-script.js');

/**
 * Bundles the page script and writes it to `out` atomically (a reader never sees half a file); returns its text.
 * Refuses a bundle that pulls in code from outside turnkit's src/ (a package: the page holds turnkit's own code only)
 * or that holds `</script` or `<!--`, which would end or disturb the inline <script> element it goes in. A module of
 * src/ that the page reaches must be browser-safe: a `node:` import fails the build here (the platform is the
 * browser), and test/unit/architecture.test.ts holds every module the page reaches to no Node module and no package.
 */
export async function buildPageScript(out = PAGE_SCRIPT_OUT) {
  const result = await build({
    entryPoints: [join(SRC, 'view', 'client', 'browser', 'main.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    tsconfig: join(ROOT, 'tsconfig.client.json'),
    charset: 'ascii',
    legalComments: 'none',
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: ROOT,
  });
  const foreign = Object.keys(result.metafile.inputs).filter((input) => !join(ROOT, input).startsWith(SRC + sep));
  if (foreign.length > 0)
    throw new Error(`the page script bundles files outside ${relative(ROOT, SRC)}: ${foreign.join(', ')}`);
  const text = result.outputFiles[0].text;
  const unsafe = /<\/script|<!--/i.exec(text);
  if (unsafe) throw new Error(`the page script holds ${unsafe[0]}, which would break its inline <script> element`);
  await mkdir(dirname(out), { recursive: true });
  const temporary = `${out}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, out);
  } finally {
    await rm(temporary, { force: true });
  }
  return text;
}

// `node scripts/build-client.mjs [OUT]`: OUT defaults to dist/client/page-script.js.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = process.argv[2] ?? PAGE_SCRIPT_OUT;
  const text = await buildPageScript(out);
  console.log(`page script: ${relative(ROOT, out)} (${text.length} characters)`);
}
