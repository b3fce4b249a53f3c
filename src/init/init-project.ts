import { sampleGameConfig } from '../config/sample-config.js';
import { existsSync } from 'node:fs';
import { appendFile, chmod, mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Catalog } from '../db/catalog-types.js';
import { TurnkitError } from '../errors.js';
import { chooseGame, starterAnswers, type GameChoices } from './choose-game.js';
import type { ChosenGame } from './game-questions.js';
import type { InitFacts } from './read-facts.js';
import { starterFiles, type StarterAnswers } from './starter-files.js';
import { STARTER_SUTS } from './starter-sut.js';
import { writeFileAtomic } from '../util/process/atomic-write.js';
import { CONFIG_FILE_NAMES } from '../config/config-file.js';

/** What `turnkit init` is told: where, whether to overwrite a config, the database's catalog and the choices. */
export interface InitOptions {
  /** The folder the project is set up in (the command line's: the shell's). */
  cwd: string;
  force?: boolean | undefined;
  /** The connected database's catalog; without one (or with no game tables in it), the sample game's names. */
  catalog?: Catalog | undefined;
  choices?: GameChoices | undefined;
  /** Enum labels, unique indexes and row counts the proposals are ranked by (read with the catalog). */
  facts?: InitFacts | undefined;
  /** The game as chosen at the prompts (answers checked one by one); without it the choices are checked here. */
  chosen?: ChosenGame | undefined;
  /** Lines of the config's `scrub` block (rules for columns that look personal or secret). */
  scrub?: string[] | undefined;
}

/** What `turnkit init` created and what it found there already. */
export interface InitResult {
  created: string[];
  kept: string[];
  answers: StarterAnswers;
  /** The npm packages the SUT stub imports that the project's package.json does not list (install them). */
  missingPackages: string[];
}

/** The sample game's names: what `init` scaffolds for a database that holds no game yet. */
const SAMPLE_ANSWERS: Omit<StarterAnswers, 'scrub' | 'sut'> = {
  root: { table: 'campaigns', key: 'id' },
  turns: { table: 'turns', order: 'turn_number', input: ['player_input'] },
  shared: ['users'],
  output: 'narration',
  caseTables: [{ table: 'world_facts', columns: ['subject', 'fact'] }],
  turnsSql: '"public"."turns"',
  campaignColumnSql: '"campaign_id"',
};

// Why each of the sample game's scrub rules is there, as the config init writes says it.
const SAMPLE_SCRUB_WHY: Record<string, string> = {
  'users.handle': 'a keyed fake handle, unique as the column is',
  'users.display_name': 'a keyed fake name',
  'users.email': 'a keyed fake address, unique as the column is',
  'users.password_hash': 'a keyed digest shaped to the column',
};

/** The sample game's scrub rules, all of them: on an empty database `db migrate`, `sample` and `capture` must work. */
const SAMPLE_SCRUB = Object.entries(sampleGameConfig.scrub ?? {}).map(
  ([column, transform]) =>
    `'${column}': ${JSON.stringify(transform).replaceAll('"', "'")}, // ${SAMPLE_SCRUB_WHY[column] ?? 'the sample game'}`,
);

/**
 * Scaffolds a project that runs: a config naming the game's tables, a starter question, rubric, case file and SUT
 * stub, and the project's folders. Never overwrites a config without `force`, nor any other file.
 */
export async function init(options: InitOptions): Promise<InitResult> {
  const cwd = resolve(options.cwd);
  const existing = CONFIG_FILE_NAMES.find((name) => existsSync(join(cwd, name)));
  if (existing && !options.force)
    throw new TurnkitError('EXISTS', `${existing}: already exists (use --force to overwrite)`);
  const choices = options.choices ?? {};
  const hasGame = options.catalog !== undefined && (options.catalog.tables.size > 0 || choices.turns !== undefined);
  const game = options.chosen
    ? starterAnswers(options.catalog!, options.chosen, choices)
    : hasGame
      ? chooseGame(options.catalog!, choices, options.facts)
      : { ...SAMPLE_ANSWERS, sut: choices.sut ?? 'node' };
  const answers: StarterAnswers = { ...game, scrub: hasGame ? (options.scrub ?? []) : SAMPLE_SCRUB };
  const created: string[] = [];
  const kept: string[] = [];
  for (const [path, text] of starterFiles(answers)) {
    const file = join(cwd, path);
    if (path !== 'turnkit.config.ts' && existsSync(file)) {
      kept.push(path);
      continue;
    }
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, text);
    if (path.startsWith('sut/')) await chmod(file, 0o755);
    created.push(path);
  }
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
  return { created, kept, answers, missingPackages: await unlisted(cwd, STARTER_SUTS[answers.sut].packages) };
}

/** The packages of `names` that the folder's package.json lists in none of its dependency fields (all without one). */
async function unlisted(cwd: string, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  let manifest: Record<string, unknown> = {};
  try {
    manifest = JSON.parse(await readFile(join(cwd, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    // No package.json (or not JSON): nothing is listed.
  }
  const listed = new Set(
    ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'].flatMap((field) => {
      const value = manifest[field];
      return value !== null && typeof value === 'object' ? Object.keys(value) : [];
    }),
  );
  return names.filter((name) => !listed.has(name));
}
