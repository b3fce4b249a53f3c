import type { GameGuess } from './guess-game.js';
import { STARTER_SUTS, starterSut, type SutLanguage } from './starter-sut.js';

/** What the starter project is made of: the game's names, and the language of its SUT stub. */
export interface StarterAnswers extends GameGuess {
  /** The column of the turns table a SUT's answer goes in, when the table has one. */
  output: string | undefined;
  /** Up to two tables of a campaign (besides its turns) for the case file to show. */
  caseTables: { table: string; columns: string[] }[];
  sut: SutLanguage;
  /** The turns table as a quoted SQL identifier, and its column holding the campaign's key (for the SUT stub). */
  turnsSql: string;
  campaignColumnSql: string;
  /** The `scrub` block of the config, one rule per line (`'users.email': 'email', // why`); empty when none. */
  scrub: string[];
}

/** The files `turnkit init` writes, by path relative to the project folder. */
export function starterFiles(answers: StarterAnswers): Map<string, string> {
  const files = new Map<string, string>();
  files.set('turnkit.config.ts', starterConfig(answers));
  files.set('questions/starter.yaml', starterQuestion(answers));
  files.set('questions/starter-rubric.md', STARTER_RUBRIC);
  files.set('questions/starter-case-file.md', starterCaseFile(answers));
  const sut = starterSut(answers);
  files.set(sut.path, sut.text);
  return files;
}

const list = (names: readonly string[]): string => `[${names.map((name) => `'${name}'`).join(', ')}]`;

function starterConfig(answers: StarterAnswers): string {
  const scrub = answers.scrub.length > 0 ? ['  scrub: {', ...answers.scrub.map((line) => `    ${line}`), '  },'] : [];
  return [
    '// A type-only import: the file loads whether or not turnkit is installed here; your editor checks it when it is.',
    "import type { TurnkitConfigInput } from 'turnkit';",
    '',
    "// turnkit reads this file for every command. It names your game's tables; turnkit finds which rows belong to a",
    "// campaign (and which are shared) from the catalog's foreign keys.",
    '//',
    '// What to do next:',
    '//   1. npx turnkit capture --campaign KEY --latest      a fixture of a live campaign, in fixtures/',
    '//   2. npx turnkit verify                               the fixture, the starter question and this config',
    `//   3. npx turnkit run questions/starter.yaml          every fixture x reps against ${STARTER_SUTS[answers.sut].command.join(' ')}`,
    '//   4. npx turnkit judge runs/starter/STAMP --checks    then: npx turnkit report runs/starter/STAMP',
    '//      (or mark the reps by hand: npx turnkit mark runs/starter/STAMP)',
    '// Then make the SUT stub call your game master, and the question and rubric ask what you want to know.',
    'export default {',
    '  database: {',
    '    // A real Postgres server (--database-url and DATABASE_URL win over it); unset: the embedded database.',
    '    url: process.env.TURNKIT_DATABASE_URL,',
    '  },',
    '  game: {',
    '    // One row of this table is one campaign; --campaign takes a value of this column.',
    `    root: { table: '${answers.root.table}', key: '${answers.root.key}' },`,
    '    turns: {',
    `      table: '${answers.turns.table}',`,
    '      // Turn N is the N-th row of a campaign in this order (an integer or timestamp column).',
    `      order: '${answers.turns.order}',`,
    '      // What the player typed: a fixture for turn N holds these columns of turn N.',
    `      input: ${list(answers.turns.input)},`,
    '    },',
    '    // Captured when a campaign references them, never owned by one, never deleted.',
    `    shared: ${list(answers.shared)},`,
    '    // Never captured (logs, analytics, sessions).',
    '    exclude: [],',
    '  },',
    ...(scrub.length > 0
      ? ['  // What capture scrubs before anything is written (keyed transforms need TURNKIT_SCRUB_KEY set).', ...scrub]
      : []),
    '} satisfies TurnkitConfigInput;',
    '',
  ].join('\n');
}

function starterQuestion(answers: StarterAnswers): string {
  const command = STARTER_SUTS[answers.sut].command;
  return [
    '# A starter question: one question, every fixture, a few reps each. Make it ask what you want to know.',
    'id: starter',
    "question: Does the SUT answer the player's input of the turn, on at least 80% of reps per fixture?",
    'rubric:',
    '  path: questions/starter-rubric.md',
    '  version: 1',
    'target: 0.8',
    'reps: 3',
    'fixtures:',
    "  - path: 'fixtures/*.json'",
    '    tag: dev',
    'sut:',
    '  type: command',
    `  command: [${command.join(', ')}]`,
    '  timeout: 60',
    'caseFile: questions/starter-case-file.md',
    '# Deterministic checks (turnkit judge RUN_DIR --checks): narrow screens, not a judge.',
    'checks:',
    '  mustNotContain: [I cannot]',
    '  effects:',
    '    noOutsideChanges: true',
    '',
  ].join('\n');
}

const STARTER_RUBRIC = `# Rubric: starter question, version 1

Mark **pass** when the response answers the player's input of the turn, consistent with the case file (the world
as it stands and the recent turns); **fail** when it contradicts the case file or ignores the input; **na** when the
rep cannot be judged (the input is empty or the case file lacks what the answer needs). Change the version above
when you change what a mark means.
`;

function starterCaseFile(answers: StarterAnswers): string {
  const tables = answers.caseTables.map((table) =>
    [
      `## ${table.table}`,
      '',
      `{{table:${table.table}${table.columns.length > 0 ? ` columns=${table.columns.join(',')}` : ''}}}`,
      '',
    ].join('\n'),
  );
  return [
    '# Case: {{fixture.name}}',
    '',
    '## Player input, turn {{turn}}',
    '',
    '{{input}}',
    '',
    ...tables,
    '## Recent turns',
    '',
    '{{recent_turns:5}}',
    '',
  ].join('\n');
}
