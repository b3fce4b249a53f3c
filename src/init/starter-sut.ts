/** The languages `init` writes a SUT stub in. */
export const SUT_LANGUAGES = ['node', 'python', 'shell'] as const;

/** One of `SUT_LANGUAGES`. */
export type SutLanguage = (typeof SUT_LANGUAGES)[number];

/** Each language's stub: its path, its command, and the npm packages it imports (the project must list them). */
export const STARTER_SUTS: Record<SutLanguage, { path: string; command: string[]; packages: string[] }> = {
  node: { path: 'sut/game-master.mjs', command: ['node', 'sut/game-master.mjs'], packages: ['pg'] },
  python: { path: 'sut/game_master.py', command: ['python3', 'sut/game_master.py'], packages: [] },
  shell: { path: 'sut/game-master.sh', command: ['sh', 'sut/game-master.sh'], packages: [] },
};

/** What a stub needs to read its campaign: the turns table and its column naming the campaign, quoted for SQL. */
export interface StubQuery {
  sut: SutLanguage;
  /** `"public"."turns"`: the turns table as a quoted identifier. */
  turnsSql: string;
  /** `"campaign_id"`: the turns table's column that holds the campaign's key, quoted. */
  campaignColumnSql: string;
}

// Every stub says the same: how many turns its campaign has, and the player's input it answers.
const WHY = [
  'A stand-in for your game master. turnkit runs it once per rep with the request as JSON on stdin (campaign,',
  "turn, input, caseFile) and DATABASE_URL pointing at the rep's scratch campaign; what it prints on stdout",
  '(JSON {"response": ...}, or plain text) is the rep\'s response. Replace the answer with a call to your model.',
];

/** The stub's file: it reads its campaign through DATABASE_URL and answers. */
export function starterSut(query: StubQuery): { path: string; text: string } {
  const sql = `SELECT count(*) FROM ${query.turnsSql} WHERE ${query.campaignColumnSql}`;
  const path = STARTER_SUTS[query.sut].path;
  if (query.sut === 'node') return { path, text: nodeStub(sql) };
  if (query.sut === 'python') return { path, text: pythonStub(sql) };
  return { path, text: shellStub(sql) };
}

function nodeStub(sql: string): string {
  return [
    '#!/usr/bin/env node',
    ...WHY.map((line) => `// ${line}`),
    "import pg from 'pg';",
    '',
    "let text = '';",
    'for await (const chunk of process.stdin) text += chunk;',
    'const request = JSON.parse(text);',
    'const client = new pg.Client({ connectionString: process.env.DATABASE_URL });',
    'await client.connect();',
    'try {',
    `  const { rows } = await client.query(${JSON.stringify(`${sql} = $1`)}, [request.campaign]);`,
    "  const said = Object.values(request.input).join(' ');",
    '  const response = `Turn ${request.turn}, after ${rows[0].count} turns: you said "${said}". The story goes on.`;',
    '  process.stdout.write(`${JSON.stringify({ response })}\\n`);',
    '} finally {',
    '  await client.end();',
    '}',
    '',
  ].join('\n');
}

function pythonStub(sql: string): string {
  return [
    '#!/usr/bin/env python3',
    ...WHY.map((line) => `# ${line}`),
    '# It reads the campaign with psql (no driver to install); your game would use its own (psycopg, ...).',
    'import json, os, subprocess, sys',
    '',
    'request = json.load(sys.stdin)',
    'count = subprocess.run(',
    `    ["psql", "-X", "-At", "-v", "key=" + str(request["campaign"]), os.environ["DATABASE_URL"]],`,
    `    input=${JSON.stringify(`${sql} = :'key';`)}, capture_output=True, text=True, check=True,`,
    ').stdout.strip()',
    'said = " ".join(str(value) for value in request["input"].values())',
    'response = f\'Turn {request["turn"]}, after {count} turns: you said "{said}". The story goes on.\'',
    'print(json.dumps({"response": response}))',
    '',
  ].join('\n');
}

function shellStub(sql: string): string {
  return [
    '#!/bin/sh',
    ...WHY.map((line) => `# ${line}`),
    '# The request on stdin is not needed here: TURNKIT_CAMPAIGN and TURNKIT_TURN say which campaign and turn.',
    'set -eu',
    'cat > /dev/null',
    `count=$(printf '%s\\n' ${shellQuote(`${sql} = :'key';`)} | psql -X -At -v key="$TURNKIT_CAMPAIGN" "$DATABASE_URL")`,
    'echo "Turn $TURNKIT_TURN, after $count turns: the story goes on."',
    '',
  ].join('\n');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
