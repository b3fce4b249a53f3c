import type { Command } from 'commander';
import { commonOptions } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit db start | url | status | migrate | load | stop`. */
export function registerDb(program: Command, output: Output): void {
  const db = program.command('db').description('the embedded database, the game schema in it, and migrations');

  db.command('start')
    .description('start the embedded PostgreSQL server and keep it running until turnkit db stop; prints its URL')
    .addHelpText(
      'after',
      examples('turnkit db start                         # keep the embedded database up for a session of work'),
    )
    .action(async (_options, command: Command) => {
      const { dbStart } = await import('../../app/db-commands.js');
      const server = await dbStart(commonOptions(command));
      // The password stays out of the terminal (and of logs that keep it): `db url --show-password` prints it.
      output.out(server.displayUrl);
      output.err(
        `${server.started ? 'embedded database started' : 'embedded database already running'}; it stays up until turnkit db stop (turnkit db url --show-password prints the URL with its password)`,
      );
    });

  db.command('url')
    .description('print the database URL, once it is ready (starts the embedded server when none runs)')
    .option('--show-password', 'print the password too: the DATABASE_URL a SUT started by hand connects with')
    .addHelpText(
      'after',
      examples(
        'turnkit db url                           # where the database is, without its password',
        'turnkit db url --show-password           # the DATABASE_URL a SUT connects with, password and all',
      ),
    )
    .action(async (options, command: Command) => {
      const { dbUrl } = await import('../../app/db-commands.js');
      const result = await dbUrl(commonOptions(command), options.showPassword === true);
      output.out(result.url);
      if (result.started) output.err('embedded database started; it stays up until turnkit db stop');
    });

  db.command('status')
    .description('say whether the embedded server runs, on which port, and who uses it')
    .option('--json', 'print the status as JSON')
    .addHelpText('after', examples('turnkit db status                        # running, pid, port, kept, users'))
    .action(async (options, command: Command) => {
      const { dbStatus } = await import('../../app/db-commands.js');
      const status = await dbStatus(commonOptions(command));
      if (options.json) return printJson(output, status);
      if (!status.running) output.out(`not running (data in ${status.dataDir}; ${status.server})`);
      else
        output.out(
          `running: pid ${status.pid}, 127.0.0.1:${status.port}, ${status.kept ? 'kept by db start' : 'stops with its last command'}, ${status.users} command(s) using it (data in ${status.dataDir}; ${status.server})`,
        );
    });

  db.command('migrate')
    .description("give the database the game's schema: game.migrate.command, else the kysely migrations")
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'turnkit db migrate                       # game.migrate.command (Django, Rails, Prisma...), else migrations/',
      ),
    )
    .action(async (options, command: Command) => {
      const { dbMigrate } = await import('../../app/db-commands.js');
      const result = await dbMigrate(commonOptions(command));
      if (options.json) return printJson(output, result);
      if (result.command) {
        output.out(`ran ${result.command.join(' ')}`);
        return;
      }
      if (result.applied.length === 0) output.out('nothing to migrate: the schema is up to date');
      for (const name of result.applied) output.out(`applied ${name}`);
    });

  db.command('load')
    .description('run a SQL file (a pg_dump, a structure.sql) in the database, in one transaction; no psql needed')
    .argument('<file>', 'the SQL file')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', examples('turnkit db load schema.sql                # pg_dump --schema-only output, say'))
    .action(async (file: string, options, command: Command) => {
      const { dbLoad } = await import('../../app/db-commands.js');
      const result = await dbLoad({ ...commonOptions(command), file });
      if (options.json) return printJson(output, result);
      output.out(
        `loaded ${result.file}: ${result.statements} statement(s)${result.copied ? `, ${result.copied} row(s) copied` : ''}`,
      );
    });

  db.command('stop')
    .description('stop the embedded server (after the turnkit commands using it end, unless --force)')
    .option('--force', 'stop it now, ending the sessions of the commands using it')
    .addHelpText('after', examples('turnkit db stop                          # stops the embedded database'))
    .action(async (options, command: Command) => {
      const { dbStop } = await import('../../app/db-commands.js');
      const result = await dbStop({ ...commonOptions(command), force: options.force === true });
      if (!result.wasRunning) output.out('no embedded database is running');
      else if (result.stopped) output.out('stopped the embedded database');
      else
        output.out(
          `the embedded database stops when the ${result.users} turnkit command(s) using it end (--force stops it now)`,
        );
    });
}
