import { type FSWatcher, watch } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';

const REP_FILE = /^rep-\d+\.json$/;

/**
 * The state of a run's rep files (reps/FIXTURE/rep-N.json) as a cheap string that changes with any of them, asked
 * for on every request: stat-ing 10,000 rep files costs 40-200 ms, so each fixture folder's mtime (changed by every
 * atomic rename into it) is taken with the count of changes a watch on it saw (a rewrite in place changes no
 * folder); a folder that cannot be watched has every rep file stat-ed.
 */
export class RepFilesState {
  /** Per fixture folder its watch (null: none could be made) and the folder's identity when it was made. */
  private readonly watchers = new Map<string, { watcher: FSWatcher | null; id?: string }>();
  private changes = 0;
  private closed = false;

  /** `watch: false` stats every rep file, as for a folder that cannot be watched (the tests try both ways). */
  constructor(
    private readonly reps: string,
    private readonly options: { watch?: boolean } = {},
  ) {}

  /** One line per fixture folder: its name and the state of its rep files. */
  async lines(): Promise<string[]> {
    const fixtures = (await readdir(this.reps).catch(() => [] as string[])).sort();
    const lines: string[] = [];
    for (const fixture of fixtures) {
      const folder = join(this.reps, fixture);
      // Watched before it is stat-ed: a change between the two is then counted, never missed.
      let watched = this.watch(folder);
      const info = await stat(folder, { bigint: true }).catch(() => undefined);
      if (!info?.isDirectory()) continue;
      // A folder removed and made again is another folder: the old watch sees nothing of it. The inode alone does
      // not tell (ext4 hands the new folder the old one's number), its birth time with it does.
      const id = `${info.ino}:${info.birthtimeNs}`;
      const entry = this.watchers.get(folder);
      if (entry && entry.id !== undefined && entry.id !== id) {
        this.forget(folder);
        watched = this.watch(folder);
      }
      const now = this.watchers.get(folder);
      if (now && now.id === undefined) now.id = id;
      lines.push(`${fixture}:${info.mtimeNs}:${watched ? 'w' : await everyRepFile(folder)}`);
    }
    // Read after every await above: a watch event queued before this request was read has been counted by now.
    lines.push(`changes:${this.changes}`);
    return lines;
  }

  /** Stops every watch. */
  close(): void {
    this.closed = true;
    for (const folder of [...this.watchers.keys()]) this.forget(folder);
  }

  // Stops a folder's watch; whatever it would have seen counts as a change.
  private forget(folder: string): void {
    this.watchers.get(folder)?.watcher?.close();
    this.watchers.delete(folder);
    this.changes++;
  }

  // Whether the folder is watched (null: it could not be, and is stat-ed file by file instead).
  private watch(folder: string): boolean {
    if (this.closed || this.options.watch === false) return false;
    let entry = this.watchers.get(folder);
    if (entry === undefined) {
      let watcher: FSWatcher | null;
      try {
        const own = basename(folder);
        watcher = watch(folder, { persistent: false }, (event, name) => {
          // The folder itself removed or moved: this watch is dead from now on, made again on the next request.
          if (event === 'rename' && name !== null && String(name) === own) {
            if (this.watchers.get(folder)?.watcher === watcher) this.forget(folder);
            return;
          }
          // A judge's or an atomic write's other files in the folder change no rep.
          if (name === null || REP_FILE.test(String(name))) this.changes++;
        });
        // A watch lost (the folder removed) is made again, from scratch, on the next request.
        watcher.on('error', () => {
          if (this.watchers.get(folder)?.watcher === watcher) this.forget(folder);
        });
      } catch {
        watcher = null;
      }
      entry = { watcher };
      this.watchers.set(folder, entry);
    }
    return entry.watcher !== null;
  }
}

// Every rep file's name, size and mtime: what a folder that cannot be watched costs per request.
async function everyRepFile(folder: string): Promise<string> {
  const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => REP_FILE.test(name)).sort();
  const parts: string[] = [];
  for (const name of names) {
    const info = await stat(join(folder, name), { bigint: true }).catch(() => undefined);
    parts.push(info ? `${name}/${info.size}/${info.mtimeNs}` : `${name}/-`);
  }
  return parts.join(',');
}
