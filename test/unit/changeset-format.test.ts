import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { applyChangeset, atomizeChangeset } from 'json-diff-ts';
import { constructedSchema } from '../../src/fixture/constructed/constructed-format.js';
import { parseFixtureText } from '../../src/fixture/read-fixture.js';
import { columnChangesOf } from '../../src/fixture/constructed/column-change.js';

const read = (path: string): string => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const example = constructedSchema.parse(JSON.parse(read('constructed/meridian-turn-23-deck-fixed.json')));
const base = parseFixtureText(read('fixtures/meridian-turn-23.json'), 'meridian-turn-23.json');

describe('the changeset is a json-diff-ts changeset', () => {
  it('atomizes, with json-diff-ts itself, to a JSONPath naming the row by its primary key', () => {
    const atoms = atomizeChangeset(example.changeset);
    expect(atoms.map((atom) => [atom.type, atom.path])).toEqual([
      ['UPDATE', "$.tables.turns.rows[?(@.id=='19')].narration"],
    ]);
  });

  it('applies with json-diff-ts to the same narration turnkit materializes', () => {
    const patched = applyChangeset(structuredClone(base), structuredClone(example.changeset));
    const row = patched.tables.turns.rows.find((candidate: { id: string }) => candidate.id === '19');
    const [change] = columnChangesOf(example.changeset).changes;
    expect(row.narration).toBe(change!.value);
    expect(row.narration).toContain('mess hall on deck 2');
  });
});
