import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/run-dir/manifest.js';
import { constructedDiff } from '../../src/view/constructed-diff.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

describe("a constructed fixture's diff in the viewer and the HTML report", () => {
  it('names its base from the project, as the run names its fixtures, not relative to the constructed file', async () => {
    const path = 'constructed/meridian-turn-23-deck-fixed.json';
    const file = { path, sha256: sha256(readFileSync(`${REPO}${path}`)) };
    // The committed file records its base as ../fixtures/meridian-turn-23.json (beside it, one folder up).
    expect(JSON.parse(readFileSync(`${REPO}${path}`, 'utf8')).base.path).toBe('../fixtures/meridian-turn-23.json');
    const diff = await constructedDiff(`${REPO}no-such-run`, file, REPO);
    if (typeof diff === 'string' || diff === null) throw new Error(String(diff));
    expect(diff.base).toBe('fixtures/meridian-turn-23.json');
    expect(diff.turn).toBe(19);
  });
});
