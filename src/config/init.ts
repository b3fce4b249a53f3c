import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { TurnkitError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { CONFIG_FILE_NAMES } from './load.js';

/** The commented config `turnkit init` writes: the sample game's, ready to edit for another schema. */
export const CONFIG_TEMPLATE = `// A type-only import: the file loads whether or not turnkit is installed in this project; your editor checks it
// when it is (npm install --save-dev /path/to/turnkit).
import type { TurnkitConfigInput } from 'turnkit';

// turnkit reads this file for every command. It describes your game's schema; turnkit finds everything else
// (which rows belong to a campaign, which are shared) from the database catalog's foreign keys.
export default {
  database: {
    // A real Postgres server. Leave it unset to use the embedded database in .turnkit/pgdata.
    // --database-url and the DATABASE_URL environment variable take precedence over this.
    url: process.env.TURNKIT_DATABASE_URL,
  },
  // Folder of kysely migrations that create your game's tables (turnkit db migrate). Unset: the sample game.
  // migrations: 'migrations',
  game: {
    // One row of this table is one campaign; --campaign takes a value of this column.
    root: { table: 'campaigns', key: 'id' },
    turns: {
      table: 'turns',
      // An integer or timestamp column: turn N is the N-th row of the campaign in this order.
      order: 'turn_number',
      // What the player typed for a turn: a fixture for turn N holds these columns of turn N.
      input: ['player_input'],
    },
    // Tables captured when a campaign references them, never owned by a campaign, never deleted.
    shared: ['users'],
    // Tables never captured (logs, analytics, sessions).
    exclude: [],
  },
  // What capture scrubs before anything is written, so players' data and secrets never reach a fixture. Capture
  // refuses a column that looks personal or secret without a rule here ('keep' one that is fine). Keyed
  // transforms (hash, email, name, username, ip, uuid, text, redact) need a secret in TURNKIT_SCRUB_KEY.
  scrub: {
    'users.email': 'email', // a keyed fake address at example.com, unique as the column is
    'users.password_hash': 'hash', // a keyed digest shaped to the column
    // 'turns.player_input': { redact: ['email', 'phone'] }, // addresses and phone numbers inside text
  },
} satisfies TurnkitConfigInput;
`;

/** What `turnkit init` created. */
export interface InitResult {
  created: string[];
}

/** Scaffolds turnkit.config.ts and the fixtures/, constructed/ and questions/ folders; never overwrites a config. */
export async function init(options: { cwd?: string | undefined; force?: boolean | undefined } = {}): Promise<InitResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const existing = CONFIG_FILE_NAMES.find((name) => existsSync(join(cwd, name)));
  if (existing && !options.force) throw new TurnkitError('EXISTS', `${existing}: already exists (use --force to overwrite)`);
  const created: string[] = [];
  await writeFileAtomic(join(cwd, 'turnkit.config.ts'), CONFIG_TEMPLATE);
  created.push('turnkit.config.ts');
  for (const folder of ['fixtures', 'constructed', 'questions']) {
    if (existsSync(join(cwd, folder))) continue;
    await mkdir(join(cwd, folder), { recursive: true });
    created.push(`${folder}/`);
  }
  const gitignore = join(cwd, '.gitignore');
  const ignored = existsSync(gitignore) ? await readFile(gitignore, 'utf8') : '';
  if (!/^\.turnkit\/?$/m.test(ignored)) {
    await appendFile(gitignore, `${ignored && !ignored.endsWith('\n') ? '\n' : ''}.turnkit/\nruns/\n`);
    created.push('.gitignore entries');
  }
  return { created };
}
