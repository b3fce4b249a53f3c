import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { loadQuestion } from '../question/load-question.js';

/**
 * The questions that hold a fixture out: those whose `fixtures` list names it (by path or glob, relative to the
 * project folder) with `tag: heldout`. A question file that does not load is passed over: `turnkit verify` is where it
 * is reported, and a construct should not fail for it.
 */
export async function questionsHoldingOut(
  fixtureFile: string,
  projectDir: string,
  questionsDir: string,
): Promise<string[]> {
  if (!existsSync(questionsDir)) return [];
  const file = resolve(fixtureFile);
  const ids: string[] = [];
  for (const name of (await readdir(questionsDir)).sort()) {
    if (!/\.(ya?ml|json)$/i.test(name)) continue;
    const loaded = await loadQuestion(join(questionsDir, name)).catch(() => undefined);
    if (!loaded) continue;
    for (const entry of loaded.question.fixtures) {
      if (typeof entry === 'string' || entry.tag !== 'heldout') continue;
      // A glob is expanded as run expands it, so that both agree on which files it names.
      const files = isDynamicPattern(entry.path)
        ? await glob(entry.path, { cwd: projectDir, absolute: true, onlyFiles: true })
        : [resolve(projectDir, entry.path)];
      if (files.map((path) => resolve(path)).includes(file)) {
        ids.push(loaded.question.id);
        break;
      }
    }
  }
  return ids;
}
