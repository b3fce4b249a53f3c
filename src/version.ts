import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** turnkit's own folder: where its package.json is (above src/ when run from sources, above dist/src/ when built). */
export const PACKAGE_ROOT: string = findPackageRoot();

/** turnkit's version from its package.json. */
export const TURNKIT_VERSION: string = readVersion();

function findPackageRoot(): string {
  for (const relative of ['../', '../../']) {
    const url = new URL(relative, import.meta.url);
    if (isTurnkitPackage(new URL('package.json', url))) return fileURLToPath(url);
  }
  return fileURLToPath(new URL('../', import.meta.url));
}

function isTurnkitPackage(url: URL): boolean {
  if (!existsSync(url)) return false;
  return (JSON.parse(readFileSync(url, 'utf8')) as { name?: string }).name === 'turnkit';
}

function readVersion(): string {
  try {
    return (
      (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0'
    );
  } catch {
    return '0.0.0';
  }
}
