import { describe, expect, it } from 'vitest';
import { checksSchema } from '../../src/question/checks-format.js';
import { screenResults, screensOf } from '../../src/question/check-screens.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import type { EffectsSummary } from '../../src/scratch/effects/scratch-effects.js';

const checks = checksSchema.parse({
  state: {
    volatile: ['played_at', 'campaigns.started_at'],
    tables: {
      turns: {
        inserted: 1,
        rows: [{ turn_number: 23, narration: { matches: 'deck 2' }, mood: { oneOf: ['calm', null] } }],
      },
      characters: { updated: { max: 1 }, rows: [{ key: { id: '7' }, hit_points: 9 }] },
      campaigns: 'unchanged',
    },
    onlyChanges: true,
  },
});

const good = (): EffectsSummary => ({
  inserted: { turns: 1 },
  updated: { characters: 1, campaigns: 1 },
  deleted: {},
  insertedRows: {
    turns: [{ id: '99', turn_number: 23, narration: 'Take the lift to deck 2.', played_at: 'x', mood: null }],
  },
  updatedRows: {
    characters: [{ key: { id: '7' }, changed: { hit_points: { before: 10, after: '9.0' } } }],
    campaigns: [{ key: { id: '1' }, changed: { started_at: { before: 'a', after: 'b' } } }],
  },
});

const record = (effects: EffectsSummary | null): RepRecord =>
  ({ fixture: 'f', rep: 1, response: 'ok', error: null, effects }) as unknown as RepRecord;

const failures = (effects: EffectsSummary | null): Record<string, string> =>
  Object.fromEntries(
    screenResults(screensOf(checks), record(effects))
      .filter((r) => r.mark === 'fail')
      .map((r) => [r.screen, r.reason]),
  );

describe('checks.state: the expected state as screens', () => {
  it('names a screen per table and one for the tables not named; a volatile change is no change; 9.0 is 9', () => {
    expect(screensOf(checks).map((s) => s.name)).toEqual([
      'state-turns',
      'state-characters',
      'state-campaigns',
      'state-only-changes',
    ]);
    expect(failures(good())).toEqual({});
  });

  it('names table, row and column with the value expected and the value found', () => {
    const wrongTurn = good();
    wrongTurn.insertedRows.turns![0]!.turn_number = 24;
    expect(failures(wrongTurn)).toEqual({ 'state-turns': 'turns[inserted].turn_number: expected 23, found 24' });

    const wrongHp = good();
    wrongHp.updatedRows!.characters![0]!.changed.hit_points!.after = 8;
    expect(failures(wrongHp)).toEqual({ 'state-characters': 'characters[id=7].hit_points: expected 9, found 8' });

    const otherRow = good();
    otherRow.updatedRows!.characters![0]!.key = { id: '8' };
    expect(failures(otherRow)['state-characters']).toBe('characters[id=7]: not inserted or updated by the SUT');

    const narration = good();
    narration.insertedRows.turns![0]!.narration = 'It is on deck 3.';
    expect(failures(narration)['state-turns']).toBe(
      'turns[inserted].narration: expected matching /deck 2/, found "It is on deck 3."',
    );
  });

  it('counts and unchanged tables: a real change to campaigns, a second turn, a table no rule names', () => {
    const moved = good();
    moved.updatedRows!.campaigns![0]!.changed.current_location_id = { before: 1, after: 2 };
    expect(failures(moved)).toEqual({
      'state-campaigns': 'campaigns: 1 row(s) updated ([id=1] current_location_id), expected unchanged',
    });
    const twice = good();
    twice.inserted.turns = 2;
    expect(failures(twice)).toEqual({ 'state-turns': 'turns: inserted 2 row(s), expected 1' });
    const decks = good();
    decks.deleted.decks = 1;
    decks.deletedRows = { decks: [{ campaign_id: '1', deck_number: 3 }] };
    expect(failures(decks)).toEqual({
      'state-only-changes':
        'decks: 1 row(s) deleted ([campaign_id=1, deck_number=3]), and the question lets only turns, characters, campaigns change',
    });
    // Updated rows beyond those recorded count as changed: their columns are unknown.
    const many = good();
    many.updated.campaigns = 25;
    expect(failures(many)['state-campaigns']).toMatch(/^campaigns: 24 row\(s\) updated/);
  });

  it('a rep with no recorded effects fails every state screen, saying why', () => {
    expect(Object.values(failures(null))).toEqual(
      Array(4).fill("the rep recorded no effects (its SUT's changes were not read)"),
    );
  });

  it('refuses a state with nothing to check, and counts that are not whole numbers', () => {
    expect(checksSchema.safeParse({ state: { volatile: ['x'] } }).success).toBe(false);
    expect(checksSchema.safeParse({ state: { tables: { turns: { inserted: 1.5 } } } }).success).toBe(false);
    expect(checksSchema.safeParse({ state: { tables: { turns: { inserted: {} } } } }).success).toBe(false);
    expect(
      checksSchema.safeParse({ state: { tables: { turns: { inserted: { min: 3, max: 1 } } } } }).error?.issues[0]
        ?.message,
    ).toBe('min is above max');
    expect(checksSchema.safeParse({ state: { tables: { turns: 'unchanged' } } }).success).toBe(true);
  });
});
