import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkKnownRecords } from '../../src/pipeline/known-records.js';
import { loadQuestion } from '../../src/question/load-question.js';
import { showingPathsFrom } from '../../src/util/shown-path.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnkit-known-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const HEAD = [
  'id: notes',
  'question: does the notes bot answer and record a note?',
  'rubric: { path: rubric.md, version: 1 }',
  'target: 0.9',
  'reps: 2',
  'fixtures: [fixtures/a.json, { path: fixtures/refusal.json, skip: [answer-term] }]',
  'sut: { type: command, command: [node, sut.mjs] }',
  'caseFile: case.md',
  'checks:',
  '  mustContain: { name: answer-term, terms: [Go] }',
  '  mustNotContain: [secret]',
  '  effects:',
  '    inserted: [{ table: notes, name: required-action, nonEmpty: [body] }]',
];

async function check(name: string, lines: string[], files: Record<string, string> = {}) {
  for (const [file, text] of Object.entries(files)) await writeFile(join(root, file), text);
  await writeFile(join(root, name), `${[...HEAD, ...lines].join('\n')}\n`);
  return showingPathsFrom(root, async () => checkKnownRecords(await loadQuestion(join(root, name))));
}

describe('known records: tests of the evaluator', () => {
  it('passes when every screen gives what the records expect, and names a screen no record makes fail', async () => {
    const result = await check('good.yaml', [
      'knownRecords:',
      '  - about: the right answer, with its note',
      '    response: Use Go.',
      '    effects: { inserted: { notes: [{ id: 1, body: use Go }] } }',
      '    expect: { answer-term: pass, required-action: pass, must-not-contain: pass }',
      '  - about: an accurate answer with no note written',
      '    response: Use Go.',
      '    expect: { answer-term: pass, required-action: fail }',
      '  - about: a refusal case, where the answer term does not apply',
      '    fixture: refusal',
      '    response: I cannot tell.',
      '    expect: { answer-term: unscored, required-action: fail }',
      '  - about: a note with an empty body does not count',
      '    response: Go',
      '    effects: { inserted: { notes: [{ id: 2, body: "" }] } }',
      '    expect: { required-action: fail }',
    ]);
    expect(result.records).toBe(4);
    // answer-term is failed by no record, nor must-not-contain: each is said with its place.
    expect(result.warnings).toEqual([
      'good.yaml:10:16: $.checks.mustContain: screen "answer-term": this screen cannot fail on any record given (add a known-bad record that fails it)',
      'good.yaml:11:19: $.checks.mustNotContain: screen "must-not-contain": this screen cannot fail on any record given (add a known-bad record that fails it)',
    ]);
  });

  it('refuses a question whose screen a known-bad record does not fail, naming the screen and the record', async () => {
    await expect(
      check('bad.yaml', [
        'knownRecords:',
        '  - response: Use Go.',
        '    effects: { inserted: { notes: [{ id: 1, body: x }] } }',
        '    expect: { required-action: pass }',
        '  - about: the wrong tool outcome, which the lexical screen cannot see',
        '    response: Go is what you want, but I wrote nothing.',
        '    effects: { inserted: { notes: [{ id: 1, body: x }] } }',
        '    expect: { required-action: fail }',
      ]),
    ).rejects.toThrow(
      /^bad\.yaml:21:32: \$\.knownRecords\[1\]\.expect\["required-action"\]: screen "required-action" gave pass on this known record \(the wrong tool outcome, which the lexical screen cannot see\), expected fail$/,
    );
  });

  it('reads known records from a file beside the question and names the place in that file', async () => {
    const records = [
      '- response: Use Go.',
      '  expect: { answer-term: pass }',
      '- response: secret Go',
      '  expect: { must-not-contain: pass }',
      '',
    ].join('\n');
    await expect(
      check('beside.yaml', ['knownRecords: beside.records.yaml'], { 'beside.records.yaml': records }),
    ).rejects.toThrow(
      /^beside\.records\.yaml:4:31: \$\[1\]\.expect\["must-not-contain"\]: screen "must-not-contain" gave fail on this known record, expected pass: contains "secret"$/,
    );
    await expect(check('missing.yaml', ['knownRecords: nowhere.yaml'])).rejects.toThrow(
      /^missing\.yaml:\d+:\d+: \$\.knownRecords: nowhere\.yaml: /,
    );
  });

  it('tests expected-state screens with the rows a record updated and deleted', async () => {
    const state = [
      '  state:',
      '    volatile: [updated_at]',
      '    tables:',
      '      npcs: { updated: 1, rows: [{ key: { id: 7 }, mood: calm }] }',
      '      notes: { deleted: 0 }',
    ];
    const result = await check('state.yaml', [
      ...state,
      'knownRecords:',
      '  - about: the npc calmed down, its timestamp touched',
      '    response: Go.',
      '    effects:',
      '      inserted: { notes: [{ id: 1, body: Go }] }',
      '      updated: { npcs: [{ key: { id: 7 }, set: { mood: calm, updated_at: now } }] }',
      '    expect: { state-npcs: pass, state-notes: pass }',
      '  - about: the wrong npc, and a note deleted',
      '    response: Go.',
      '    effects:',
      '      updated: { npcs: [{ key: { id: 8 }, set: { mood: calm } }] }',
      '      deleted: { notes: [{ id: 3 }] }',
      '    expect: { state-npcs: fail, state-notes: fail }',
    ]);
    expect(result.records).toBe(2);
    await expect(
      check('state-bad.yaml', [
        ...state,
        'knownRecords:',
        '  - about: only the timestamp changed',
        '    response: Go.',
        '    effects: { updated: { npcs: [{ key: { id: 7 }, set: { updated_at: now } }] } }',
        '    expect: { state-npcs: pass }',
      ]),
    ).rejects.toThrow(
      /screen "state-npcs" gave fail on this known record \(only the timestamp changed\), expected pass: npcs: updated 0 row\(s\), expected 1; npcs\[id=7\]\.mood: expected "calm", not changed by the SUT$/,
    );
  });

  it('refuses an expectation of a screen the question does not have, and a skip of one', async () => {
    await expect(
      check('unknown.yaml', ['knownRecords:', '  - response: Go', '    expect: { answer-terms: pass }']),
    ).rejects.toThrow(
      /: no screen is named "answer-terms" \(the question's screens: answer-term, must-not-contain, required-action\)$/,
    );
    await writeFile(
      join(root, 'skip.yaml'),
      `${HEAD.map((line) => line.replace('skip: [answer-term]', 'skip: [answer]')).join('\n')}\n`,
    );
    await expect(
      showingPathsFrom(root, async () => checkKnownRecords(await loadQuestion(join(root, 'skip.yaml')))),
    ).rejects.toThrow(/^skip\.yaml:6:\d+: \$\.fixtures\[1\]\.skip\[0\]: no screen is named "answer"/);
  });

  it('refuses two screens of one name', async () => {
    await writeFile(
      join(root, 'twice.yaml'),
      `${HEAD.map((line) => line.replace('mustNotContain: [secret]', 'mustNotContain: { name: answer-term, terms: [secret] }')).join('\n')}\n`,
    );
    await expect(
      showingPathsFrom(root, async () => checkKnownRecords(await loadQuestion(join(root, 'twice.yaml')))),
    ).rejects.toThrow(
      /^twice\.yaml:11:\d+: \$\.checks\.mustNotContain: screen "answer-term" is also the name of \$\.checks\.mustContain: give each screen its own name$/,
    );
  });
});
