import { Command, CommanderError } from 'commander';
import { exitCodeFor, isTurnkitError } from '../errors.js';
import { TURNKIT_VERSION } from '../version.js';
import { registerCapture } from './commands/capture.js';
import { registerConstruct } from './commands/construct.js';
import { registerEdit } from './commands/edit.js';
import { registerMaterialize } from './commands/materialize.js';
import { registerRebase } from './commands/rebase.js';
import { registerRun } from './commands/run.js';
import { registerReport } from './commands/report.js';
import { registerJudge } from './commands/judge.js';
import { registerMerge } from './commands/merge.js';
import { registerDemo } from './commands/demo.js';
import { registerAgree } from './commands/agree.js';
import { registerMark } from './commands/mark.js';
import { registerDb } from './commands/db.js';
import { registerInit } from './commands/init.js';
import { registerSample } from './commands/sample.js';
import { registerSeed } from './commands/seed.js';
import { registerShow } from './commands/show.js';
import { registerTeardown } from './commands/teardown.js';
import { registerGc } from './commands/gc.js';
import { registerVerify } from './commands/verify.js';
import { registerView } from './commands/view.js';
import { processOutput, type Output } from './output.js';

/** Builds the commander program with every command registered. */
export function buildProgram(output: Output = processOutput): Command {
  const program = new Command('turnkit')
    .description('fixtures, scratch campaigns and ev2-style evaluation runs for an LLM that runs a turn-based game')
    .version(TURNKIT_VERSION)
    .option('--config <file>', 'config file (default: turnkit.config.ts or .json in the working directory)')
    .option('--database-url <url>', 'a real Postgres server (default: DATABASE_URL, the config, else the embedded database)')
    .option('--debug', 'show stack traces of errors')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.out(text.trimEnd()),
      writeErr: (text) => output.err(text.trimEnd()),
    });
  registerInit(program, output);
  registerDb(program, output);
  registerSample(program, output);
  registerDemo(program, output);
  registerCapture(program, output);
  registerShow(program, output);
  registerVerify(program, output);
  registerConstruct(program, output);
  registerEdit(program, output);
  registerMaterialize(program, output);
  registerRebase(program, output);
  registerSeed(program, output);
  registerRun(program, output);
  registerMerge(program, output);
  registerReport(program, output);
  registerMark(program, output);
  registerJudge(program, output);
  registerAgree(program, output);
  registerView(program, output);
  registerTeardown(program, output);
  registerGc(program, output);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Runs the CLI and returns the exit code: 0 done, 1 the operation failed, 2 wrong usage. */
export async function run(argv: readonly string[], output: Output = processOutput): Promise<number> {
  const program = buildProgram(output);
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version "errors" are successes; everything else commander rejects is wrong usage.
      return error.exitCode === 0 ? 0 : 2;
    }
    const debug = argv.includes('--debug');
    if (isTurnkitError(error)) {
      for (const problem of error.problems) output.err(problem);
    } else {
      output.err(`turnkit: ${describeUnexpected(error)}`);
    }
    if (debug && error instanceof Error && error.stack) output.err(error.stack);
    return exitCodeFor(error);
  }
}

function describeUnexpected(error: unknown): string {
  const err = error as { message?: string; code?: string; detail?: string };
  const first = (err?.message ?? String(error)).split('\n')[0];
  // SQLSTATE codes are five characters: a database error, not a turnkit bug.
  if (typeof err?.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code)) return `database error ${err.code}: ${first}`;
  return `${first} (run with --debug for details)`;
}
