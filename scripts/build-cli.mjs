// Part of `npm run build`, after tsc: the command line's own modules bundled into its entry. Node 20 has no compile
// cache for ES modules, so each of turnkit's modules a command loads costs it a resolve, a read and a compile (about
// 0.5 ms of CPU each): `turnkit report RUN` loaded 72 of them. esbuild (a dev dependency, as for the page script)
// bundles src/cli/bin.ts into dist/src/cli/bin.js (package.json's "bin", overwriting tsc's), ESM, with every package
// left outside (`packages: 'external'`: node_modules load as they always did, and the server's binary package is
// found where npm put it). `splitting: true` keeps each dynamic import of the CLI (the lazy commands, the SUT kinds, the
// report's formats...) a chunk of its own, loaded when used, in dist/src/cli/chunks/. The library (dist/src/index.js,
// turnkit/testing) stays tsc's output, one file per module. Code that finds files by its own module's place does so
// through PACKAGE_ROOT (src/version.ts), which looks up for turnkit's package.json from wherever it was bundled to.
import { readdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(ROOT, 'dist', 'src', 'cli');
const CHUNKS = join(OUT, 'chunks');

// Chunks of an earlier build would stay behind (their names hold a hash): the folder is the bundle's alone.
await rm(CHUNKS, { recursive: true, force: true });
const result = await build({
  entryPoints: { bin: join(ROOT, 'src', 'cli', 'bin.ts') },
  outdir: OUT,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  tsconfig: join(ROOT, 'tsconfig.build.json'),
  charset: 'utf8',
  legalComments: 'none',
  // Stacks under --debug name the sources' lines; Node reads the map only with --enable-source-maps.
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  absWorkingDir: ROOT,
});
const chunks = (await readdir(CHUNKS)).filter((name) => name.endsWith('.js')).length;
const inputs = Object.keys(result.metafile.inputs).length;
console.log(`command line: ${relative(ROOT, join(OUT, 'bin.js'))} and ${chunks} chunks from ${inputs} modules`);
