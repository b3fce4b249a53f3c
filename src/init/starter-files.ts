import type { Declarations } from './declarations.js';
import type { GameGuess } from './game-questions.js';
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
  /** Tables never captured (migration tools' bookkeeping). */
  exclude?: string[] | undefined;
  /** References, turn columns and unique columns proposed, and what is left to declare. */
  declarations?: Declarations | undefined;
  /** What was chosen and why, one line each. */
  inferred?: string[] | undefined;
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

// A TypeScript string literal: game names may hold quotes or backslashes.
const str = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const list = (names: readonly string[]): string => `[${names.map(str).join(', ')}]`;
const record = (entries: readonly { key: string; value: string }[]): string =>
  `{ ${entries.map((entry) => `${str(entry.key)}: ${str(entry.value)}`).join(', ')} }`;

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
    '//   0. export TURNKIT_SCRUB_KEY="$(openssl rand -hex 32)"   capture scrubs players\' data with it: keep it secret',
    '//   1. npx turnkit capture --campaign KEY --latest      a fixture of a live campaign, in fixtures/',
    '//   2. npx turnkit verify                               the fixture, the starter question and this config',
    `//   3. npx turnkit run questions/starter.yaml          every fixture x reps against ${STARTER_SUTS[answers.sut].command.join(' ')}`,
    '//   4. npx turnkit judge runs/starter/STAMP --checks    then: npx turnkit report runs/starter/STAMP --marks marks.checks.csv',
    '//      (or mark the reps by hand: npx turnkit mark runs/starter/STAMP)',
    '// Then make the SUT stub call your game master, and the question and rubric ask what you want to know.',
    'export default {',
    '  database: {',
    '    // A real Postgres server (--database-url and DATABASE_URL win over it); unset: the embedded database.',
    '    url: process.env.TURNKIT_DATABASE_URL,',
    '  },',
    '  game: {',
    '    // One row of this table is one campaign; --campaign takes a value of this column.',
    `    root: { table: ${str(answers.root.table)}, key: ${str(answers.root.key)} },`,
    '    turns: {',
    `      table: ${str(answers.turns.table)},`,
    ...turnLines(answers),
    '    },',
    '    // Captured when a campaign references them, never owned by one, never deleted.',
    `    shared: ${list(answers.shared)},`,
    "    // Never captured (logs, analytics, sessions; migration tools' tables).",
    `    exclude: ${list(answers.exclude ?? [])},`,
    ...declarationLines(answers.declarations),
    '  },',
    ...(scrub.length > 0
      ? ['  // What capture scrubs before anything is written (keyed transforms need TURNKIT_SCRUB_KEY set).', ...scrub]
      : []),
    '} satisfies TurnkitConfigInput;',
    '',
  ].join('\n');
}

function turnLines(answers: StarterAnswers): string[] {
  const { turn, role } = answers.turns;
  const lines = [
    turn
      ? '      // Rows are ordered by this column within a turn (an integer or timestamp column).'
      : role
        ? "      // Rows in this order (an integer or timestamp column); a turn starts at each of the player's rows."
        : '      // Turn N is the N-th row of a campaign in this order (an integer or timestamp column).',
    `      order: ${str(answers.turns.order)},`,
  ];
  if (turn)
    lines.push(
      "      // The game's own turn number: rows sharing its value are one turn; turn N is the turn numbered N.",
      `      turn: ${str(turn)},`,
    );
  if (role) {
    const output = role.output ? `, output: ${str(role.output)}` : '';
    lines.push(
      "      // Which rows of a turn are the player's input; output: the value of the row turnkit writes for a SUT's answer.",
      `      role: { column: ${str(role.column)}, input: ${list(role.input)}${output} },`,
    );
  }
  lines.push(
    '      // What the player typed: a fixture for turn N holds these columns of turn N.',
    `      input: ${list(answers.turns.input)},`,
  );
  return lines;
}

function declarationLines(declarations: Declarations | undefined): string[] {
  if (!declarations) return [];
  const lines: string[] = [];
  if (declarations.references.length > 0)
    lines.push(
      "    // Columns holding another row's key with no foreign key: owned, sliced and remapped like foreign keys.",
      `    references: ${record(declarations.references)},`,
    );
  if (declarations.turnColumns.length > 0)
    lines.push(
      '    // Owned tables with no foreign-key path to the turns, sliced by their own turn column.',
      `    turnColumns: ${record(declarations.turnColumns)},`,
    );
  if (declarations.unique.length > 0)
    lines.push(
      "    // Unique columns of owned rows get a fresh value of the same shape in each scratch copy; 'keep' keeps the",
      "    // captured value: unique: { 'TABLE.COLUMN': 'keep' }. Found: " +
        declarations.unique.map((item) => item.key).join(', '),
    );
  for (const line of declarations.missing) lines.push(`    // TODO ${line}`);
  return lines;
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
