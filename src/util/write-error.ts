/** Why a file could not be written, in words a user acts on (a folder in the way, a file where a folder should be). */
export function describeWriteError(error: NodeJS.ErrnoException): string {
  // mkdir says EEXIST, open says ENOTDIR, when a folder of the path is a file.
  if (error.code === 'ENOTDIR' || error.code === 'EEXIST') return 'a folder on its path is a file';
  if (error.code === 'EISDIR') return 'it is a folder';
  if (error.code === 'EACCES' || error.code === 'EPERM') return 'permission denied';
  return error.code ?? error.message;
}
