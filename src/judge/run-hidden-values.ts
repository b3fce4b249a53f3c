import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { loadFixture } from '../fixture/load-fixture.js';
import { type HiddenValues, hiddenValues } from '../checks/hidden-checks.js';
import type { HiddenRule } from '../question/hidden-format.js';
import type { Manifest } from '../run-dir/manifest.js';
import { sha256 } from '../util/sha256.js';
import { firstLine } from '../sut/guarded-sut-call.js';

/**
 * The values each `hidden:` rule hides, per fixture of a run, read from the fixture files the manifest names (beside
 * the run's project, or from `cwd`). A file that is gone, changed since the run or unreadable leaves its rules
 * unscored with the reason: its values now need not be the ones the SUT saw. The values stay in memory only.
 */
export async function runHiddenValues(
  runDir: string,
  manifest: Manifest,
  cwd: string,
  rules: readonly HiddenRule[],
): Promise<Map<string, HiddenValues[]>> {
  const out = new Map<string, HiddenValues[]>();
  const unscored = (why: string): HiddenValues[] => rules.map(() => ({ missing: why }));
  for (const entry of manifest.fixtures) {
    const file = entry.file;
    const path = [resolve(runDir, '..', '..', '..', file.path), resolve(cwd, file.path)].find((p) => existsSync(p));
    if (!path) {
      out.set(entry.name, unscored(`${file.path} is not beside the run`));
      continue;
    }
    if (sha256(await readFile(path)) !== file.sha256) {
      out.set(entry.name, unscored(`${file.path} changed since the run`));
      continue;
    }
    try {
      out.set(entry.name, hiddenValues(rules, (await loadFixture(path)).fixture));
    } catch (error) {
      out.set(entry.name, unscored(`${file.path}: ${firstLine(error)}`));
    }
  }
  return out;
}
