import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { checkFixture, formatFixtureProblems } from '../../src/fixture/check-fixture.js';
import { parseFixtureText } from '../../src/fixture/read-fixture.js';
import type { Fixture } from '../../src/fixture/format.js';

const text = readFileSync(new URL('../../fixtures/meridian-turn-23.json', import.meta.url), 'utf8');
const fresh = (): Fixture => structuredClone(parseFixtureText(text, 'meridian-turn-23.json'));

describe('checkFixture on the committed sample fixture', () => {
  it('finds nothing wrong with a capture', () => {
    expect(checkFixture(fresh())).toEqual([]);
  });

  it('reports a duplicate primary key with both rows', () => {
    const fixture = fresh();
    fixture.tables.turns!.rows[5]!.id = fixture.tables.turns!.rows[2]!.id;
    expect(formatFixtureProblems('f.json', checkFixture(fixture))).toContain(
      `f.json: $.tables.turns.rows[5]: duplicate primary key (${fixture.tables.turns!.rows[2]!.id}) (also row 2)`,
    );
  });

  it('reports a foreign key that points at no row of the fixture', () => {
    const fixture = fresh();
    fixture.tables.world_facts!.rows[0]!.campaign_id = '777';
    const problems = formatFixtureProblems('f.json', checkFixture(fixture));
    expect(problems).toEqual([
      'f.json: $.tables.world_facts.rows[0]: foreign key world_facts_campaign_id_fkey (777) has no row in "campaigns" (foreignKeys[0])',
    ]);
  });

  it('reports a missing column, an unknown column and a turn mismatch', () => {
    const fixture = fresh();
    delete fixture.tables.decks!.rows[0]!.name;
    fixture.tables.decks!.rows[1]!.colour = 'red';
    fixture.input.turn = 22;
    expect(formatFixtureProblems('f.json', checkFixture(fixture))).toEqual([
      'f.json: $.input.turn: is 22 but source.turn is 23',
      'f.json: $.tables.decks.rows[0]: missing column "name"',
      'f.json: $.tables.decks.rows[1].colour: is not a column of "decks"',
    ]);
  });

  it('reports a root table without the root row', () => {
    const fixture = fresh();
    fixture.source.root.value = '2';
    expect(formatFixtureProblems('f.json', checkFixture(fixture))).toEqual([
      'f.json: $.tables.campaigns.rows: has no row with id = 2',
    ]);
  });
});
