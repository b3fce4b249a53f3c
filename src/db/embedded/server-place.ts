import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { reachableBy, type ServerAccount } from './server-account.js';
import type { ServerBinaries } from './server-binaries.js';
import type { ClusterPlace } from './server-cluster.js';

/**
 * Where turnkit keeps what a root-run server must reach outside the project, when the project's folder is closed to
 * the server's account (a clone under /root, mode 700): the server's programs and its data directory.
 */
const SHARED_ROOT = '/var/lib/turnkit';

/**
 * Decides where the cluster of a state folder lives and which programs run it. Not as root: `STATE/data` and the
 * installed package, as they are. As root (the server runs as another account): the same where that account can
 * reach them; else the programs are copied once per package version to /var/lib/turnkit/server/, and the data
 * directory lives in /var/lib/turnkit/clusters/HASH/ (HASH: of the state folder's absolute path), so that the
 * project's folders are never opened up to another user.
 */
export async function placeCluster(
  stateDir: string,
  binaries: ServerBinaries,
  account: ServerAccount | undefined,
): Promise<ClusterPlace> {
  const inProject = join(stateDir, 'data');
  if (!account) return { dataDir: inProject, nativeDir: binaries.nativeDir, account };
  // The state folder itself must let the account through (but not list it: the password file is there).
  await chmod(stateDir, 0o711);
  const reachable = reachableBy(join(inProject, 'PG_VERSION'), account);
  const dataDir = reachable
    ? inProject
    : join(SHARED_ROOT, 'clusters', createHash('sha256').update(resolve(stateDir)).digest('hex').slice(0, 16), 'data');
  // A cluster the project holds already (an image built with `db migrate`, a copy) moves out with its data the
  // first time: copied, then given to the account (ownDataDir) before its server starts.
  if (!reachable && !existsSync(join(dataDir, 'PG_VERSION')) && existsSync(join(inProject, 'PG_VERSION')))
    await copyInPlace(inProject, dataDir, 'PG_VERSION', (copy) => rm(join(copy, 'postmaster.pid'), { force: true }));
  const nativeDir = reachableBy(join(binaries.nativeDir, 'bin', 'postgres'), account)
    ? binaries.nativeDir
    : await copiedPrograms(binaries);
  return { dataDir, nativeDir, account };
}

/** The programs copied where any account can run them, once per package version (made aside, renamed in place). */
async function copiedPrograms(binaries: ServerBinaries): Promise<string> {
  const target = join(SHARED_ROOT, 'server', binaries.packageId.replace(/[^A-Za-z0-9.@-]+/g, '_'), 'native');
  if (!existsSync(join(target, 'bin'))) await copyInPlace(binaries.nativeDir, target, 'bin');
  return target;
}

/** Copies a folder to `target`: made aside (`tidy` runs on the copy), then renamed in place. */
async function copyInPlace(
  source: string,
  target: string,
  marker: string,
  tidy?: (copy: string) => Promise<void>,
): Promise<void> {
  const building = `${target}.copy-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  await mkdir(join(target, '..'), { recursive: true, mode: 0o755 });
  await cp(source, building, { recursive: true, verbatimSymlinks: true });
  await tidy?.(building);
  try {
    await rename(building, target);
  } catch (error) {
    // Another turnkit copied it meanwhile (its `marker` is there): theirs is as good.
    await rm(building, { recursive: true, force: true });
    if (!existsSync(join(target, marker))) throw error;
  }
}
