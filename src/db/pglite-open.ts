import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Extensions, PGlite, PGliteOptions } from '@electric-sql/pglite';

/** How to open PGlite. */
export interface OpenPgliteOptions {
  /** Link the contrib extensions (default true). */
  extensions?: boolean | undefined;
  /**
   * A gzipped data directory archive (pgdata-template.ts) to start an in-memory database from, instead of initdb:
   * for `memory://`, whose files cannot be extracted natively beforehand.
   */
  loadDataDir?: Uint8Array | undefined;
}

/**
 * Opens PGlite on a data directory with the contrib extensions game schemas commonly use (PGlite can only load
 * them at start), unless `extensions` is false: a data directory known to need none (the demo's sample game)
 * opens about a fifth faster without linking them. Loaded on demand: PGlite's modules cost about 70 MB, which a
 * guest or a real-Postgres run never needs.
 */
export async function openPglite(dataDir: string, options: OpenPgliteOptions = {}): Promise<PGlite> {
  const [[{ PGlite }, { citext }, { pgcrypto }, { uuid_ossp }], pgliteWasmModule] = await Promise.all([
    pgliteModules(),
    compiledPglite(),
  ]);
  const extensions: Extensions = options.extensions === false ? {} : { uuid_ossp, pgcrypto, citext };
  // PGlite tells a gzipped archive from a plain tar by the blob's type.
  const loadDataDir = options.loadDataDir
    ? new Blob([options.loadDataDir as Uint8Array<ArrayBuffer>], { type: 'application/x-gzip' })
    : undefined;
  return PGlite.create({ dataDir, extensions, pgliteWasmModule, ...(loadDataDir ? { loadDataDir } : {}) });
}

/**
 * Starts loading PGlite's modules and compiling its WebAssembly, so that both happen while the caller does something
 * else (fills a data directory from a template): compiling the 9 MB module is most of an open's own time, and V8 does
 * it on background threads.
 */
export function preloadPglite(): void {
  // A failure here is seen again, and reported, by openPglite.
  pgliteModules().catch(() => {});
  compiledPglite().catch(() => {});
}

type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;
// The WebAssembly global is Node's; this project's TypeScript libraries (no DOM) do not declare it.
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } })
  .WebAssembly;
let compiling: Promise<WasmModule> | undefined;

// PGlite's WebAssembly, compiled once per process (a module is reusable: every PGlite opened here instantiates it).
function compiledPglite(): Promise<WasmModule> {
  compiling ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    return wasm.compile(await readFile(join(dirname(entry), 'pglite.wasm')));
  })();
  // A failed read or compile is said by this open, and tried again by the next one.
  compiling.catch(() => {
    compiling = undefined;
  });
  return compiling;
}

function pgliteModules() {
  return Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/citext'),
    import('@electric-sql/pglite/contrib/pgcrypto'),
    import('@electric-sql/pglite/contrib/uuid_ossp'),
  ]);
}

/** The installed PGlite's version: a data directory made by another version may not open with this one. */
export function pgliteVersion(): string {
  // The package does not export its package.json; it sits one folder above the entry point.
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const file = entry.replace(/[\\/]dist[\\/][^\\/]+$/, '/package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}
