import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kindsByValue } from '../../src/fixture/scrub/value-detector.js';
import { EverywhereScan, type RawValue } from '../../src/fixture/scrub/scrub-everywhere.js';
import { LEFT_ALONE, TRIED_KINDS, triedKindsTable } from '../helpers/privacy-kinds.js';

const GUIDE = new URL('../../docs/guides/privacy-and-scrubbing.md', import.meta.url);

describe('the kinds of players data the detector catches', () => {
  it.each(TRIED_KINDS)('catches a $kind', ({ example, caught }) => {
    expect(kindsByValue(example).map((hit) => hit.kind)).toContain(caught);
  });

  it.each(LEFT_ALONE)('leaves game text alone: %s', (text) => {
    expect(kindsByValue(text)).toEqual([]);
  });

  it("the privacy guide's table of kinds tried and caught is this list", () => {
    const text = readFileSync(GUIDE, 'utf8');
    const start = text.indexOf('<!-- kinds tried: start -->');
    const end = text.indexOf('<!-- kinds tried: end -->');
    expect(start).toBeGreaterThan(0);
    const table = text
      .slice(start, end)
      .split('\n')
      .filter((line) => line.startsWith('|'));
    expect(table).toEqual(triedKindsTable());
  });
});

describe('a scrubbed value found again in other text, in the forms it takes there', () => {
  const values: RawValue[] = [
    { raw: 'Dana Kowalski', fake: 'Mira Holt', target: 'users.display_name' },
    { raw: 'Zoë Adler', fake: 'Ines Brook', target: 'users.display_name' },
    { raw: 'dana_k', fake: 'player-7f3a', target: 'users.handle' },
  ];
  const table = {
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'narration', type: 'text' },
      { name: 'meta', type: 'jsonb' },
    ],
    primaryKey: ['id'],
    foreignKeys: [],
  } as never;
  const VARIANTS: [string, string][] = [
    ['Dana Kowalski waves.', 'Mira Holt waves.'],
    ['dana kowalski waves.', 'Mira Holt waves.'],
    ['DANA KOWALSKI waves.', 'Mira Holt waves.'],
    ['Dana   Kowalski waves.', 'Mira Holt waves.'],
    ['Dana\nKowalski waves.', 'Mira Holt waves.'],
    ['Dana_Kowalski waves.', 'Mira Holt waves.'],
    ['dana.kowalski waves.', 'Mira Holt waves.'],
    ['Dana-Kowalski waves.', 'Mira Holt waves.'],
    ['profile/Dana%20Kowalski', 'profile/Mira Holt'],
    ["Dana Kowalski's ship.", "Mira Holt's ship."],
    ['(Dana Kowalski)', '(Mira Holt)'],
    ['"Dana Kowalski"', '"Mira Holt"'],
    ['Zoë Adler nods.', 'Ines Brook nods.'],
    ['Zoe Adler nods.', 'Ines Brook nods.'],
    ['ZOE ADLER nods.', 'Ines Brook nods.'],
    ['@dana_k rolls.', '@player-7f3a rolls.'],
    ['DANA_K rolls.', 'player-7f3a rolls.'],
    ['dana-k rolls.', 'player-7f3a rolls.'],
    ['dana.k rolls.', 'player-7f3a rolls.'],
    ['dana k rolls.', 'player-7f3a rolls.'],
  ];

  it.each(VARIANTS)('replaces %j', (text, replaced) => {
    const scan = new EverywhereScan(values, new Set(), true);
    const rows = [{ id: 1, narration: text, meta: null }];
    scan.rows('turns', table, 'rows', rows, 0);
    expect(rows[0]!.narration).toBe(replaced);
    expect(scan.hits).toHaveLength(1);
  });

  it('replaces a name or handle used as a JSON object key, naming the object, never the key', () => {
    const scan = new EverywhereScan(values, new Set(), true);
    const rows = [{ id: 1, narration: null, meta: { scores: { dana_k: 12, 'Dana Kowalski': 3, other: 1 } } }];
    scan.rows('turns', table, 'rows', rows, 0);
    expect(rows[0]!.meta).toEqual({ scores: { 'player-7f3a': 12, 'Mira Holt': 3, other: 1 } });
    expect(scan.hits.map((hit) => hit.place)).toEqual([
      ['tables', 'turns', 'rows', 0, 'meta', 'scores'],
      ['tables', 'turns', 'rows', 0, 'meta', 'scores'],
    ]);
  });
});
