import { existsSync, readFileSync } from 'node:fs';

/** turnkit's version from its package.json (found above src/ when run from sources, above dist/src/ when built). */
export const TURNKIT_VERSION: string = readVersion();

function readVersion(): string {
  for (const relative of ['../package.json', '../../package.json']) {
    const url = new URL(relative, import.meta.url);
    if (!existsSync(url)) continue;
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'turnkit' && pkg.version) return pkg.version;
  }
  return '0.0.0';
}
