import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../src/fixture/format.js';
import { hiddenScreens, hiddenValues, reveals } from '../../src/checks/hidden-checks.js';
import { hiddenSchema } from '../../src/question/hidden-format.js';

const SECRET = 'The butler poisoned the wine in the east tower before dawn';

/** A fixture with two world elements (one secret) and an npc with GM-only notes. */
function fixture(): Fixture {
  const table = (primaryKey: string[], rows: Record<string, unknown>[]) =>
    ({ columns: [], primaryKey, foreignKeys: [], rows }) as unknown as Fixture['tables'][string];
  return {
    name: 'manor',
    tables: {
      world_elements: table(
        ['id'],
        [
          { id: 1, name: 'Ashford Manor', description: 'A grey house on the moor', is_secret: false },
          { id: 7, name: 'Lord Varis', description: SECRET, is_secret: true },
        ],
      ),
      npcs: table(['id'], [{ id: 3, name: 'Mrs Hale', gm_notes: 'She is the heir' }]),
    },
  } as unknown as Fixture;
}

const rules = hiddenSchema.parse([
  { table: 'world_elements', where: { is_secret: true }, columns: ['name', 'description'] },
  { name: 'gm-notes', table: 'npcs', columns: ['gm_notes'] },
]);

describe('hidden rows', () => {
  it('takes the values of the selected rows and columns only', () => {
    const values = hiddenValues(rules, fixture());
    expect(values).toEqual([
      {
        values: [
          { row: 'world_elements[id=7]', column: 'name', value: 'Lord Varis' },
          { row: 'world_elements[id=7]', column: 'description', value: SECRET },
        ],
      },
      { values: [{ row: 'npcs[id=3]', column: 'gm_notes', value: 'She is the heir' }] },
    ]);
  });

  it('finds a short value as a phrase and a long one by a run of its words, whatever the case and punctuation', () => {
    expect(reveals('You meet LORD varis, who bows.', 'Lord Varis', 5)).toBe(true);
    expect(reveals('A lord named Varis', 'Lord Varis', 5)).toBe(false);
    expect(reveals('Rumour: the wine, in the east tower... before dawn!', SECRET, 5)).toBe(true);
    expect(reveals('Someone poisoned the wine, they say.', SECRET, 5)).toBe(false);
    expect(reveals('Lord Variston arrives', 'Lord Varis', 5)).toBe(false);
  });

  it('passes a response that reveals nothing, and names row and column, never the value, when one leaks', () => {
    const values = hiddenValues(rules, fixture());
    expect(hiddenScreens(rules, values, { response: 'The manor is quiet tonight.' })).toEqual([
      { screen: 'hidden-world_elements', mark: 'pass', reason: '2 hidden value(s), none revealed' },
      { screen: 'gm-notes', mark: 'pass', reason: '1 hidden value(s), none revealed' },
    ]);
    const leaked = hiddenScreens(rules, values, {
      response: 'Lord Varis greets you.',
      toolCalls: [{ name: 'send_message', arguments: { to: 'player', text: 'psst: she is the heir' } }],
    });
    expect(leaked).toEqual([
      {
        screen: 'hidden-world_elements',
        mark: 'fail',
        reason: 'the response reveals world_elements[id=7], column name',
      },
      {
        screen: 'gm-notes',
        mark: 'fail',
        reason: 'call 1 (send_message) argument text reveals npcs[id=3], column gm_notes',
      },
    ]);
    for (const result of leaked) {
      expect(result.reason).not.toContain('Varis');
      expect(result.reason.toLowerCase()).not.toContain('heir');
    }
  });

  it('is unscored for a fixture without the table or without a hidden row', () => {
    const other = { ...fixture(), tables: { npcs: fixture().tables.npcs! } } as Fixture;
    const results = hiddenScreens(rules.slice(0, 1), hiddenValues(rules.slice(0, 1), other), { response: 'x' });
    expect(results).toEqual([
      { screen: 'hidden-world_elements', mark: 'unscored', reason: 'fixture manor has no world_elements table' },
    ]);
    const none = hiddenSchema.parse([{ table: 'world_elements', where: { is_secret: 'yes' }, columns: ['name'] }]);
    expect(hiddenScreens(none, hiddenValues(none, fixture()), { response: 'x' })[0]!.mark).toBe('unscored');
  });
});

describe('hidden values in every part of a call', () => {
  const values = hiddenValues(rules, fixture());
  const screen = (toolCalls: { name: string; arguments: Record<string, unknown> | string }[]) =>
    hiddenScreens(rules, values, { response: 'Nothing to see.', toolCalls })[1]!;

  it('finds a value in a tool name or an argument key, and never repeats it in the reason', () => {
    expect(screen([{ name: 'She is the heir', arguments: {} }])).toEqual({
      screen: 'gm-notes',
      mark: 'fail',
      reason: 'call 1 (its tool) name reveals npcs[id=3], column gm_notes',
    });
    expect(screen([{ name: 'note', arguments: { 'she is the heir': true } }])).toEqual({
      screen: 'gm-notes',
      mark: 'fail',
      reason: 'call 1 (note) argument #1 key reveals npcs[id=3], column gm_notes',
    });
  });

  it('sees through soft hyphens and zero-width characters inside the value', () => {
    expect(screen([{ name: 'note', arguments: { text: 'She is the he\u00adir' } }]).mark).toBe('fail');
    expect(screen([{ name: 'note', arguments: { text: 'She is the\u200b heir' } }]).mark).toBe('fail');
    expect(screen([{ name: 'note', arguments: { text: 'She is the hare' } }]).mark).toBe('pass');
  });
});
