import { visibleControls } from '../util/visible-controls.js';
import { showingPathsFrom } from '../util/shown-path.js';
import { Command, CommanderError, type Option } from 'commander';
import { exitCodeFor, isTurnkitError } from '../errors.js';
import { TURNKIT_VERSION } from '../version.js';
import { processOutput, type Output } from './output.js';

type Register = (program: Command, output: Output) => void;

/**
 * Every command, in the order help lists them, each registered from its own module on demand: a command line
 * that names one command loads only that one (and, in it, only what its action uses).
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  init: async () => (await import('./commands/init.js')).registerInit,
  db: async () => (await import('./commands/db.js')).registerDb,
  sample: async () => (await import('./commands/sample.js')).registerSample,
  demo: async () => (await import('./commands/demo.js')).registerDemo,
  capture: async () => (await import('./commands/capture.js')).registerCapture,
  show: async () => (await import('./commands/show.js')).registerShow,
  verify: async () => (await import('./commands/verify.js')).registerVerify,
  construct: async () => (await import('./commands/construct.js')).registerConstruct,
  edit: async () => (await import('./commands/edit.js')).registerEdit,
  materialize: async () => (await import('./commands/materialize.js')).registerMaterialize,
  rebase: async () => (await import('./commands/rebase.js')).registerRebase,
  upgrade: async () => (await import('./commands/upgrade.js')).registerUpgrade,
  seed: async () => (await import('./commands/seed.js')).registerSeed,
  run: async () => (await import('./commands/run.js')).registerRun,
  merge: async () => (await import('./commands/merge.js')).registerMerge,
  report: async () => (await import('./commands/report.js')).registerReport,
  plan: async () => (await import('./commands/plan.js')).registerPlan,
  attribute: async () => (await import('./commands/attribute.js')).registerAttribute,
  mark: async () => (await import('./commands/mark.js')).registerMark,
  judge: async () => (await import('./commands/judge.js')).registerJudge,
  agree: async () => (await import('./commands/agree.js')).registerAgree,
  view: async () => (await import('./commands/view.js')).registerView,
  teardown: async () => (await import('./commands/teardown.js')).registerTeardown,
  gc: async () => (await import('./commands/gc.js')).registerGc,
};

/** Global options that take a value: the word after them is not the command. */
const GLOBAL_VALUE_OPTIONS = new Set(['--config', '--database-url']);

/** The command a command line names (the first word that is not a global option or its value), if any. */
function commandNamed(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (GLOBAL_VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/** Builds the commander program: the command `argv` names, or every command (for help and unknown commands). */
export async function buildProgram(output: Output = processOutput, argv: readonly string[] = []): Promise<Command> {
  const program = new Command('turnkit')
    .description('fixtures, scratch campaigns and ev2-style evaluation runs for an LLM that runs a turn-based game')
    .version(TURNKIT_VERSION)
    .option('--config <file>', 'config file (default: turnkit.config.ts or .json in the working directory)')
    .option(
      '--database-url <url>',
      'a real Postgres server (default: DATABASE_URL, the config, else the embedded database)',
    )
    .option('--debug', 'show stack traces of errors')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', '\nGuides and references: docs/README.md in the turnkit repository lists every page.')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.out(text.trimEnd()),
      // Commander puts its "Did you mean" on a line of its own; the error stays one line with it.
      writeErr: (text) => output.err(text.trimEnd().replace(/\n\(Did you mean (.+?)\?\)/, ' (did you mean $1?)')),
    })
    .hook('preSubcommand', (_program, command) => deferRequiredOptions(command))
    .hook('preAction', (_program, command) => checkRequiredOptions(command));
  const args = argv.slice(2);
  const named = commandNamed(args);
  // `turnkit --version` needs no command; help and an unknown command (which commander answers with the closest
  // names) need them all.
  const versionOnly = named === undefined && args.some((arg) => arg === '--version' || arg === '-V');
  const all = versionOnly ? [] : Object.keys(COMMANDS);
  const names = named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : all;
  for (const register of await Promise.all(names.map((name) => COMMANDS[name]!()))) register(program, output);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** The required options of each command, taken over from commander by deferRequiredOptions. */
const deferred = new WeakMap<Command, Option[]>();

/**
 * Commander checks required options before unknown ones, so `capture --campagin 1` said "required option
 * '--campaign <key>' not specified" instead of naming the typo. Before a command parses its options they stop being
 * commander's to require; checkRequiredOptions asks for them just before the action, after commander has rejected
 * unknown options (with its suggestion of the right one).
 */
function deferRequiredOptions(command: Command): void {
  const required = command.options.filter((option) => option.mandatory);
  for (const option of required) option.mandatory = false;
  if (required.length > 0) deferred.set(command, required);
}

function checkRequiredOptions(command: Command): void {
  const missing = deferred.get(command)?.find((option) => command.getOptionValue(option.attributeName()) === undefined);
  if (missing)
    command.error(`error: required option '${missing.flags}' not specified`, {
      exitCode: 2,
      code: 'commander.missingMandatoryOptionValue',
    });
}

/** Runs the CLI and returns the exit code: 0 done, 1 the operation failed, 2 wrong usage. */
export function run(argv: readonly string[], output: Output = processOutput): Promise<number> {
  // Messages show paths from the shell's folder: said here, at the edge, for everything the command does.
  return showingPathsFrom(process.cwd(), () => runProgram(argv, inert(output)));
}

/**
 * Every line a command prints, with its control characters as visible escapes: a tool name, a judge's reason or a
 * marks file's field may hold a screen clear, a window title or an OSC 52 clipboard write, and no message of
 * turnkit's is a place for one (its own progress line goes through `terminal`, untouched).
 */
function inert(output: Output): Output {
  return {
    ...output,
    out: (line) => output.out(visibleControls(line)),
    err: (line) => output.err(visibleControls(line)),
  };
}

async function runProgram(argv: readonly string[], output: Output): Promise<number> {
  let program: Command;
  try {
    program = await buildProgram(output, argv);
  } catch (error) {
    output.err(`turnkit: ${describeUnexpected(error)}`);
    return 1;
  }
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
