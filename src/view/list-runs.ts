import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Every run directory under a runs folder (`runs/QUESTION/STAMP/` holding a manifest.json), newest stamp first. */
export async function listRuns(runsRoot: string): Promise<string[]> {
  if (!existsSync(runsRoot)) return [];
  const found: string[] = [];
  for (const question of (await readdir(runsRoot, { withFileTypes: true })).filter((entry) => entry.isDirectory())) {
    const questionDir = join(runsRoot, question.name);
    for (const stamp of (await readdir(questionDir, { withFileTypes: true })).filter((entry) => entry.isDirectory())) {
      if (existsSync(join(questionDir, stamp.name, 'manifest.json'))) found.push(join(questionDir, stamp.name));
    }
  }
  // Stamps are UTC times: a reverse sort of the folder names puts the latest run of each question first.
  return found.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}
