import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/util/sha256.js';
import { constructedDiff } from '../../src/view/constructed-diff.js';
import { copySampleFiles } from '../helpers/sample-project.js';

describe("a constructed fixture's diff in the viewer and the HTML report", () => {
  it('names its base from the project, as the run names its fixtures, not relative to the constructed file', async () => {
    // A copy of the sample project: a test never reads the repository's own fixtures/ or constructed/.
    const project = await mkdtemp(join(tmpdir(), 'turnkit-constructed-diff-'));
    await copySampleFiles(project);
    const path = 'constructed/meridian-turn-23-deck-fixed.json';
    const text = await readFile(join(project, path), 'utf8');
    const file = { path, sha256: sha256(text) };
    // The file records its base as ../fixtures/meridian-turn-23.json (relative to itself, one folder up).
    expect(JSON.parse(text).base.path).toBe('../fixtures/meridian-turn-23.json');
    // Found beside the run (the run directory's grandparent's parent is the project), from any working folder.
    const beside = await constructedDiff(join(project, 'runs', 'places', 'RUN'), file, tmpdir());
    // Found from the working folder when the run is elsewhere.
    const fromCwd = await constructedDiff(join(tmpdir(), 'no-such-run'), file, project);
    for (const diff of [beside, fromCwd]) {
      if (typeof diff === 'string') throw new Error(diff);
      expect([diff.base, diff.turn]).toEqual(['fixtures/meridian-turn-23.json', 19]);
    }
  });
});
