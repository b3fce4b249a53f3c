import { existsSync, readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** turnkit's own package.json as found: its folder, and the text read once (every command reads its version). */
const found = findPackage();

/**
 * turnkit's own folder: where its package.json is (above src/ when run from sources, above dist/src/ when built).
 */
export const PACKAGE_ROOT: string = found.root;

/**
 * Whether this code runs built (from PACKAGE_ROOT/dist/, tsc's output) rather than from
 * the sources under tsx: what else was built beside it (dist/migrations/) is then there to use.
 */
export const RUNS_BUILT: boolean = relative(found.root, fileURLToPath(import.meta.url)).split(sep)[0] === 'dist';

/** turnkit's version from its package.json. */
export const TURNKIT_VERSION: string = found.version ?? '0.0.0';

function findPackage(): { root: string; version: string | undefined } {
  // Up from this module's folder: one level from src/, two from dist/src/.
  for (const up of ['../', '../../']) {
    const url = new URL(up, import.meta.url);
    const manifest = turnkitPackage(new URL('package.json', url));
    // The package.json that says it is turnkit's also gives the version: read and parsed once, not again for it.
    if (manifest) return { root: fileURLToPath(url), version: manifest.version };
  }
  // Neither says it is turnkit's: the folder above this file, and whatever version its package.json gives.
  const root = new URL('../', import.meta.url);
  try {
    const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version?: string };
    return { root: fileURLToPath(root), version: manifest.version };
  } catch {
    return { root: fileURLToPath(root), version: undefined };
  }
}

function turnkitPackage(url: URL): { version?: string } | undefined {
  if (!existsSync(url)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version?: string };
    return manifest.name === 'turnkit' ? manifest : undefined;
  } catch {
    return undefined;
  }
}
