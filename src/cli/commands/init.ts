import { Option, type Command } from 'commander';
import type { GameChoices } from '../../init/choose-game.js';
import type { ChosenGame } from '../../init/game-questions.js';
import { STARTER_SUTS, SUT_LANGUAGES } from '../../init/starter-sut.js';
import { commonOptions } from '../global-options.js';
import type { Output } from '../output.js';
import { examples } from '../help-examples.js';

const names = (value: string): string[] =>
  value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** `turnkit init [--root T --turns T --order C --turn C --role C=V --input C,...] [--sut ...] [--yes]`. */
export function registerInit(program: Command, output: Output): void {
  program
    .command('init')
    .description(
      "scaffold a project that runs: a config naming your game's tables, a starter question, rubric, case file and SUT stub",
    )
    .option('--root <table>', 'the table one row of which is one campaign (default: guessed from the database)')
    .option('--key <column>', "the root table's key column (default: its primary key)")
    .option(
      '--turns <table>',
      'the table of turns (default: guessed: a table below the root, at any foreign-key depth, with an order column)',
    )
    .option('--order <column>', "the turns' order column, an integer or timestamp (default: guessed)")
    .option(
      '--turn <column>',
      "the game's own turn column, rows sharing a value are one turn, or none (default: guessed from the rows)",
    )
    .option(
      '--role <column=values>',
      "which rows are the player's input, as COLUMN=VALUE,..., or none (default: guessed from an enum or the rows)",
    )
    .option('--input <columns>', "the player's input columns of a turn, comma-separated (default: guessed)", names)
    .option(
      '--shared <tables>',
      'tables captured when referenced, never owned (players, accounts), comma-separated',
      names,
    )
    .addOption(new Option('--sut <language>', "the SUT stub's language").choices([...SUT_LANGUAGES]).default('node'))
    .option('--yes', 'take every guess without asking (the default when stdin is not a terminal)')
    .option('--force', 'overwrite an existing config file')
    .addHelpText(
      'after',
      examples(
        'turnkit init --yes                      # guess the game from the database, write config, question, SUT stub',
        'turnkit init --yes --turns turns --order turn_number --input player_input --sut python',
        'turnkit init --yes --turn none --role none  # one row is one turn (a game turn of several rows: --turn turn --role type=ACTION)',
      ),
    )
    .action(async (options, command: Command) => {
      const { readInitCatalog } = await import('../../init/read-catalog.js');
      const { init } = await import('../../init/init-project.js');
      const choices: GameChoices = {
        root: options.root,
        key: options.key,
        turns: options.turns,
        order: options.order,
        turn: options.turn,
        role: options.role,
        input: options.input,
        shared: options.shared,
        sut: options.sut,
      };
      // The CLI reads the environment; the library is told.
      const databaseUrl = commonOptions(command).databaseUrl || process.env.DATABASE_URL || undefined;
      const { catalog, facts, scrub } = await readInitCatalog({ cwd: process.cwd(), databaseUrl });
      const interactive = !options.yes && process.stdin.isTTY === true && process.stdout.isTTY === true;
      let chosen: ChosenGame | undefined;
      if (interactive && catalog.tables.size > 0) {
        const { askGameChoices } = await import('../ask-game-choices.js');
        chosen = await askGameChoices(catalog, facts, choices, output);
      }
      const result = await init({ cwd: process.cwd(), force: options.force, catalog, facts, choices, chosen, scrub });
      for (const item of result.created) output.out(`created ${item}`);
      for (const item of result.kept) output.out(`kept ${item} (already there)`);
      if (result.missingPackages.length > 0) {
        const packages = result.missingPackages.join(' ');
        output.out(
          `the SUT stub ${STARTER_SUTS[result.answers.sut].path} needs the ${packages} package, which package.json does not list: npm install --save-dev ${packages}`,
        );
      }
      const { root, turns } = result.answers;
      output.out(
        `game: campaigns in ${root.table} (key ${root.key}), turns in ${turns.table} ordered by ${turns.order}, input ${turns.input.join(', ')}`,
      );
      const { inferred = [], declarations } = result.answers;
      if (inferred.length > 0) output.out('inferred:');
      for (const line of inferred) output.out(`  ${line}`);
      const missing = declarations?.missing ?? [];
      if (missing.length > 0) output.out('still to declare in turnkit.config.ts (marked TODO there):');
      for (const line of missing) output.out(`  ${line}`);
      output.out(
        `next: turnkit capture --campaign KEY --latest, then turnkit run questions/starter.yaml (the config says more)`,
      );
    });
}
