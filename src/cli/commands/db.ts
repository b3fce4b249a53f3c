import type { Command } from 'commander';
import { commonOptions } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit db start | url | migrate | stop`. */
export function registerDb(program: Command, output: Output): void {
  const db = program.command('db').description('the embedded database and migrations');

  db.command('start')
    .description('run the embedded database in the foreground and print its URL (Ctrl-C stops it)')
    .addHelpText(
      'after',
      examples('turnkit db start                         # serve the embedded database until Ctrl-C'),
    )
    .action(async (_options, command: Command) => {
      const { dbStart } = await import('../../app/db-commands.js');
      const server = await dbStart(commonOptions(command));
      // The password stays out of the terminal (and of logs that keep it): `db url --show-password` prints it.
      output.out(server.displayUrl);
      if (!server.owner) {
        output.err('already running in another turnkit process');
        return;
      }
      output.err(
        'embedded database ready (it asks for its password: turnkit db url --show-password prints the full URL); Ctrl-C stops it',
      );
      // The server's own signal handler closes PGlite cleanly and exits; until then keep the process alive.
      await new Promise<never>(() => {});
    });

  db.command('url')
    .description('print the database URL (any password removed unless --show-password)')
    .option('--show-password', 'print the password too: the DATABASE_URL a SUT started by hand connects with')
    .addHelpText(
      'after',
      examples(
        'turnkit db url                           # while db start runs: where the database is, without its password',
        'turnkit db url --show-password           # the DATABASE_URL a SUT connects with, password and all',
      ),
    )
    .action(async (options, command: Command) => {
      const { dbUrl } = await import('../../app/db-commands.js');
      output.out(await dbUrl(commonOptions(command), options.showPassword === true));
    });

  db.command('migrate')
    .description('apply pending migrations of the game schema')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', examples("turnkit db migrate                       # the sample game's migrations/"))
    .action(async (options, command: Command) => {
      const { dbMigrate } = await import('../../app/db-commands.js');
      const result = await dbMigrate(commonOptions(command));
      if (options.json) return printJson(output, result);
      if (result.applied.length === 0) output.out('nothing to migrate: the schema is up to date');
      for (const name of result.applied) output.out(`applied ${name}`);
    });

  db.command('stop')
    .description('stop the embedded database another turnkit process runs')
    .addHelpText('after', examples('turnkit db stop                          # stops the db start of this project'))
    .action(async (_options, command: Command) => {
      const { dbStop } = await import('../../app/db-commands.js');
      const stopped = await dbStop(commonOptions(command));
      output.out(stopped ? `stopped process ${stopped.pid}` : 'no embedded database is running');
    });
}
