import { asCommand } from '../helpers/as-command.js';
import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copySampleFiles } from '../helpers/sample-project.js';
import { verifyFixtures } from '../../src/fixture/verify-fixtures.js';
import { materialize } from '../../src/fixture/constructed/materialize.js';

const CONSTRUCTED = 'constructed/meridian-turn-23-deck-fixed.json';
const EMAIL = 'dana.whitfield@realmail.io';
const API_KEY = 'sk-live-4eC39HqLyjWDarjtT1zdp7dc';

// A copy of the sample project whose constructed fixture's change writes what capture would have refused.
async function patchedProject(edit: (document: Record<string, unknown>) => void): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'turnkit-constructed-privacy-'));
  await copySampleFiles(dir);
  const document = JSON.parse(await readFile(join(dir, CONSTRUCTED), 'utf8')) as Record<string, unknown>;
  edit(document);
  await writeFile(join(dir, CONSTRUCTED), `${JSON.stringify(document, null, 2)}\n`);
  return dir;
}

// The one change of the sample's constructed fixture: turn 19's narration.
function narrationChange(document: Record<string, unknown>): { value: string } {
  const walk = (node: unknown): { value: string } | undefined => {
    if (Array.isArray(node)) return node.map(walk).find(Boolean);
    if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (record.key === 'narration' && typeof record.value === 'string') return record as { value: string };
      return Object.values(record).map(walk).find(Boolean);
    }
    return undefined;
  };
  return walk(document)!;
}

describe('verify and materialize on what a constructed change adds (issue 30.2)', () => {
  it('flag an email and an sk-live key written into a column without a rule, never printing them', async () => {
    const dir = await patchedProject((document) => {
      narrationChange(document).value += ` Write to ${EMAIL}; the console key is ${API_KEY}.`;
    });
    const result = await asCommand(verifyFixtures, { cwd: dir, paths: [CONSTRUCTED] });
    expect(result.files).toEqual([{ file: CONSTRUCTED, ok: false }]);
    expect(result.problems).toEqual([
      expect.stringMatching(
        /^constructed\/meridian-turn-23-deck-fixed\.json: \$\.tables\.turns\.rows\[\d+\]\.narration: turns\.narration: looks like a secret and an email address \(value\): added by the change, with no scrub rule$/,
      ),
    ]);
    const refused = await materialize({ cwd: dir, paths: { baseDir: dir } }, { constructed: CONSTRUCTED }).then(
      () => 'materialized',
      (error: Error) => error.message,
    );
    // materialize names the file as the working folder shows it.
    expect(refused.endsWith(result.problems[0]!)).toBe(true);
    expect(`${result.problems.join('\n')}${refused}`).not.toMatch(/realmail|sk-live|whitfield/);
  });
});
