import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseFixtureText } from '../../src/fixture/read-fixture.js';
import { factPlaceholders, PLACEHOLDERS, renderCaseFile, withFacts } from '../../src/question/case-file.js';
import { TurnkitError } from '../../src/errors.js';
import type { Fixture } from '../../src/fixture/format.js';

const read = (path: string): string => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const fixture = parseFixtureText(read('fixtures/meridian-turn-23.json'), 'fixtures/meridian-turn-23.json');
const INPUT = 'I leave engineering and go to the mess hall to find Dr. Hale. How do I get there?';

const render = (template: string, f: Fixture = fixture): string => renderCaseFile(template, f, 'questions/case.md');

/** The error a template gives, as a TurnkitError (fails the test when it renders). */
function renderError(template: string, f: Fixture = fixture): TurnkitError {
  try {
    render(template, f);
  } catch (error) {
    expect(error).toBeInstanceOf(TurnkitError);
    return error as TurnkitError;
  }
  throw new Error(`expected ${JSON.stringify(template)} to fail`);
}

describe('case-file placeholders', () => {
  it('documents exactly the placeholders it renders', () => {
    expect(PLACEHOLDERS.map((line) => line.split(/\s{2,}/)[0])).toEqual([
      '{{fixture.name}}',
      '{{turn}}',
      '{{input}}',
      '{{input.COLUMN}}',
      '{{root.COLUMN}}',
      '{{table:NAME}}',
      '{{table:NAME columns=A,B}}',
      '{{recent_turns:N}}',
      '{{fact:NAME}}',
    ]);
  });

  it('leaves {{fact:NAME}} for each rep to fill from its campaign, and fills it then', () => {
    expect(render('On {{fact:mess_hall_deck}}; {{ fact:other }}.')).toBe('On {{fact:mess_hall_deck}}; {{fact:other}}.');
    expect(withFacts('On {{fact:mess_hall_deck}}; {{ fact:other }}.', { mess_hall_deck: { value: 'deck 2' } })).toBe(
      'On deck 2; {{ fact:other }}.',
    );
    expect(factPlaceholders('{{fact:a}} {{ fact:b-2 }} {{facts}}')).toEqual(['a', 'b-2']);
  });

  it('renders the fixture name, the turn and the input, leaving the text around them alone', () => {
    expect(render('# {{fixture.name}} (turn {{turn}})\n')).toBe('# meridian-turn-23 (turn 23)\n');
    expect(render('> {{input}}')).toBe(`> ${INPUT}`);
    expect(render('> {{input.player_input}}')).toBe(`> ${INPUT}`);
    // Spaces inside the braces are allowed.
    expect(render('{{ turn }}|{{  input.player_input }}')).toBe(`23|${INPUT}`);
    expect(render('no placeholders { at } all {{')).toBe('no placeholders { at } all {{');
  });

  it('lists every input column when there are several, JSON for what is not text', () => {
    const two = structuredClone(fixture);
    two.input.values = { player_input: 'I roll.', dice: [3, 4], spoken: null };
    expect(render('{{input}}', two)).toBe('- player_input: I roll.\n- dice: [3,4]\n- spoken: ');
    expect(render('{{input.dice}}', two)).toBe('[3,4]');
  });

  it('renders a column of the campaign row, JSON for jsonb and strings for bigint', () => {
    expect(render('{{root.title}}')).toBe('The Long Dark of the Meridian');
    expect(render('{{root.rng_seed}}')).toBe('9007199254741000');
    expect(render('{{root.settings}}')).toBe(
      '{"dice":"2d6","tone":"grim","safety":{"lines":["spiders"],"veils":["vacuum exposure"]},"difficulty":"hard"}',
    );
    // Multi-line text comes out as it is, outside a table.
    expect(render('{{root.opening_narration}}')).toBe(fixture.tables.campaigns!.rows[0]!.opening_narration);
    expect(render('{{root.opening_narration}}').split('\n')).toHaveLength(6);
  });

  it("renders a table without its key columns, or with the columns asked for, in the fixture's row order", () => {
    // decks: primary key (campaign_id, deck_number) is left out.
    expect(render('{{table:decks}}')).toBe(
      ['| name |', '| --- |', '| Command |', '| Habitation |', '| Engineering |', '| Cargo |'].join('\n'),
    );
    expect(render('{{table:decks columns=deck_number,name}}')).toBe(
      [
        '| deck_number | name |',
        '| --- | --- |',
        '| 1 | Command |',
        '| 2 | Habitation |',
        '| 3 | Engineering |',
        '| 4 | Cargo |',
      ].join('\n'),
    );
    // A shared table works the same way.
    // Its handle, display name, email and password hash as the sample config scrubbed them at capture.
    expect(render('{{table:users}}')).toBe(
      [
        '| handle | display_name | created_at | email | password_hash |',
        '| --- | --- | --- | --- | --- |',
        '| Trace.Beatty_a2ec | Jeff Ryan | 2026-12-01T08:23:19.538+00:00 | allan.terry18.2093@example.com | f9194b93cf3aa1b04166051b5a46e473 |',
      ].join('\n'),
    );
    // JSON values as JSON, a JSON string scalar as its text, null as an empty cell.
    expect(render('{{table:world_facts columns=subject,details}}')).toBe(
      [
        '| subject | details |',
        '| --- | --- |',
        '| Mess Hall | {"deck":2} |',
        '| Engineering | {"deck":3} |',
        '| Bridge | {"deck":1} |',
        '| Distress call | sealed by captain |',
        '| Reactor |  |',
        '| Distress call | rumour |',
        '| Cargo | 3 |',
      ].join('\n'),
    );
  });

  it('says a table is empty rather than rendering a header alone', () => {
    const empty = structuredClone(fixture);
    empty.tables.decks!.rows = [];
    expect(render('{{table:decks}}', empty)).toBe('_(no rows)_');
  });

  it('escapes | and line breaks inside table cells so that each row stays one Markdown row', () => {
    const odd = structuredClone(fixture);
    odd.tables.decks!.rows = [
      { campaign_id: '1', deck_number: 1, name: 'Command | Bridge' },
      { campaign_id: '1', deck_number: 2, name: 'Habitation\nberths\r\nmess' },
      { campaign_id: '1', deck_number: 3, name: '||' },
    ];
    const table = render('{{table:decks columns=deck_number,name}}', odd);
    expect(table).toBe(
      [
        '| deck_number | name |',
        '| --- | --- |',
        '| 1 | Command \\| Bridge |',
        '| 2 | Habitation<br>berths<br>mess |',
        '| 3 | \\|\\| |',
      ].join('\n'),
    );
    // The committed narration has five line breaks; in a table they become <br>, one row.
    const narration = render('{{table:campaigns columns=opening_narration}}');
    expect(narration.split('\n')).toHaveLength(3);
    expect(narration.split('<br>')).toHaveLength(6);
  });

  it('renders the last N kept turns in turn order with input and narration', () => {
    expect(render('{{recent_turns:2}}')).toBe(
      [
        '**Turn 21.** Player: I ask Reyes where Dr. Hale is.',
        '',
        'Reyes jerks a thumb upward. "Hale was headed for the mess hall last I saw."',
        '',
        '**Turn 22.** Player: I check the drive readouts.',
        '',
        'The readouts flicker but hold. The reactor is hot, as it has been since the jump.',
      ].join('\n'),
    );
    // Order comes from the turn order column, not from the file.
    const shuffled = structuredClone(fixture);
    shuffled.tables.turns!.rows.reverse();
    expect(render('{{recent_turns:2}}', shuffled)).toBe(render('{{recent_turns:2}}'));
    // More than there are: all 22 kept turns, turn 1 first.
    const all = render('{{recent_turns:100}}');
    expect(all.match(/^\*\*Turn \d+\.\*\*/gm)).toHaveLength(22);
    expect(all.startsWith('**Turn 1.** Player: I go to the mess hall.\n\n')).toBe(true);
  });
});

describe('case-file template errors', () => {
  it('names an unknown placeholder with the template file, line and column, and lists the known ones', () => {
    const error = renderError('{{bogus}}');
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toBe(
      'questions/case.md:1:1: {{bogus}}: unknown placeholder; the known ones are {{fixture.name}} {{turn}} {{input}} {{input.COLUMN}} {{root.COLUMN}} {{table:NAME}} {{table:NAME columns=A,B}} {{recent_turns:N}} {{fact:NAME}}',
    );
    expect(renderError('{{}}').message).toMatch(/^questions\/case\.md:1:1: \{\{\}\}: unknown placeholder;/);
  });

  it('places the error on the right line and column of a multi-line template, after placeholders that rendered', () => {
    const template = [
      '# Case {{fixture.name}}',
      '',
      'Turn {{turn}}: {{input}}',
      '',
      '## Facts',
      '',
      'Known: {{turn}} and {{table:world_fact}}',
      '',
    ].join('\n');
    expect(renderError(template).message).toBe(
      'questions/case.md:7:21: {{table:world_fact}}: no table "world_fact" in meridian-turn-23',
    );
    // Offsets are those of the template, not of the text already rendered before the bad placeholder.
    expect(renderError('{{input}} {{recent_turns:5}}\n  {{input.said}}').message).toBe(
      'questions/case.md:2:3: {{input.said}}: the input has no column "said" (it has player_input)',
    );
  });

  it('rejects an unknown table, an unknown column and a bad turn count', () => {
    expect(renderError('\n\n   {{table:nope}}').message).toBe(
      'questions/case.md:3:4: {{table:nope}}: no table "nope" in meridian-turn-23',
    );
    // A name that exists only on Object.prototype is not a table either.
    expect(renderError('{{table:constructor}}').message).toBe(
      'questions/case.md:1:1: {{table:constructor}}: no table "constructor" in meridian-turn-23',
    );
    expect(renderError('x\n{{table:decks columns=name,colour}}').message).toBe(
      'questions/case.md:2:1: {{table:decks columns=name,colour}}: decks has no column "colour"',
    );
    expect(renderError('ab {{root.nope}}').message).toBe(
      'questions/case.md:1:4: {{root.nope}}: the campaign row has no column "nope"',
    );
    expect(renderError('{{input.nope}}').message).toBe(
      'questions/case.md:1:1: {{input.nope}}: the input has no column "nope" (it has player_input)',
    );
    for (const count of ['0', '-1', '2.5', 'x', '']) {
      expect(renderError(`line 1\n\t{{recent_turns:${count}}}`).message).toBe(
        `questions/case.md:2:2: {{recent_turns:${count}}}: expected a whole number of turns, like {{recent_turns:5}}`,
      );
    }
    expect(renderError('{{recent_turns}}').message).toMatch(
      /^questions\/case\.md:1:1: \{\{recent_turns\}\}: expected a whole number/,
    );
  });
});

describe('the committed sample template', () => {
  it('renders for the committed fixture with the input, the opening narration, the world facts and recent turns', () => {
    const text = renderCaseFile(read('questions/case-file.md'), fixture, 'questions/case-file.md');
    expect(text).not.toContain('{{');
    expect(text).toContain('# Case: meridian-turn-23\n');
    expect(text).toContain(`## Player input, turn 23\n\n${INPUT}\n`);
    expect(text).toContain('She has four decks. Deck 1, Command, holds the bridge');
    expect(text).toContain(
      [
        '| subject | fact | certainty |',
        '| --- | --- | --- |',
        '| Mess Hall | The mess hall is on deck 2 (Habitation), next to the crew berths. | 1.000 |',
        '| Engineering | Engineering is on deck 3; the lift and the ladder from the crew berths reach it. | 1.000 |',
        '| Bridge | The bridge is on deck 1 and only the captain may enter the ready room. | 1.000 |',
        '| Distress call | Three weeks ago the Meridian answered a distress call; the log entry is sealed. | 0.750 |',
        '| Reactor | The reactor runs hot since the last jump. | 0.875 |',
        '| Distress call | Learned on turn 9: something new about the distress call. | 0.500 |',
        '| Cargo | Learned on turn 18: something new about the cargo. | 0.500 |',
      ].join('\n'),
    );
    // recent_turns:5 = turns 18..22.
    expect(text.match(/^\*\*Turn (\d+)\.\*\*/gm)).toEqual([
      '**Turn 18.**',
      '**Turn 19.**',
      '**Turn 20.**',
      '**Turn 21.**',
      '**Turn 22.**',
    ]);
  });
});
