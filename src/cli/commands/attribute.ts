import { type Command, InvalidArgumentError, Option } from 'commander';
import { shownPath } from '../../util/shown-path.js';
import { commonOptions, positiveInt } from '../global-options.js';
import { examples } from '../help-examples.js';
import { printJson, type Output } from '../output.js';
import { progressLine, stopOnSignals } from './run.js';

/** Options of the attribute command as commander gives them. */
interface AttributeFlags {
  question?: string;
  turns?: string;
  window?: number;
  neutralText?: string;
  patches?: string;
  repsPerLook?: number;
  looks?: number;
  alpha?: number;
  concurrency?: number;
  strategy?: 'remap' | 'database' | 'auto';
  resume?: string;
  save?: string | boolean;
  json?: boolean;
}

/** `turnkit attribute FIXTURE --question Q`: which upstream turn misleads the SUT, by experiment. */
export function registerAttribute(program: Command, output: Output): void {
  program
    .command('attribute')
    .description(
      'which upstream turn misleads the SUT: reps of the fixture with each turn neutralised, ranked against the base',
    )
    .argument('[fixture]', 'the fixture to attribute (captured or constructed); not with --resume')
    .option('--question <file>', 'the question whose checks mark the reps (its SUT, case file and checks)')
    .option('--turns <list>', 'the upstream turns to try: each (default), or turns and ranges like 15-22 or 3,19')
    .option('--window <n>', 'turns neutralised together in one variant (default 1)', positiveInt)
    .option('--neutral-text <text>', "put this text in place of each turn's output instead of leaving it out")
    .option('--patches <dir>', "apply the author's patch turn-N.json of this folder for turn N instead")
    .option('--reps-per-look <n>', 'reps of every arm at each look (default 10)', positiveInt)
    .option(
      '--looks <n>',
      'looks at most; the design stops at the first with a significant variant (default 4)',
      positiveInt,
    )
    .option('--alpha <rate>', 'familywise error rate kept over the variants and the looks (default 0.05)', alphaValue)
    .option('--concurrency <k>', 'SUT calls at a time (default 4)', positiveInt)
    .addOption(
      new Option('--strategy <strategy>', "how each rep's scratch campaign is made").choices([
        'remap',
        'database',
        'auto',
      ]),
    )
    .option('--resume <dir>', 'continue an interrupted attribution (runs/QUESTION/attribute-FIXTURE-STAMP)')
    .option(
      '--save [dir]',
      "write the variants found to raise the pass rate as constructed fixtures (default: the config's constructed folder)",
    )
    .option('--json', 'print the ranking as JSON')
    .addHelpText(
      'after',
      examples(
        'turnkit attribute fixtures/meridian-turn-23.json --question questions/places.yaml --turns 15-22',
        'turnkit attribute fixtures/meridian-turn-23.json --question questions/places.yaml --turns 17-22 --window 3 --neutral-text "The crew goes about its business."',
        'turnkit attribute --resume runs/places/ATTRIBUTION --save   # the significant variants to constructed/',
      ),
    )
    .action(async (fixture: string | undefined, options: AttributeFlags, command: Command) => {
      const { TurnkitError } = await import('../../errors.js');
      if (options.neutralText !== undefined && options.patches !== undefined)
        throw new TurnkitError('USAGE', 'give one of --neutral-text and --patches');
      if (options.resume !== undefined && fixture !== undefined)
        throw new TurnkitError('USAGE', 'give the fixture or --resume, not both');
      if (options.resume === undefined && (fixture === undefined || options.question === undefined))
        throw new TurnkitError('USAGE', 'give the fixture and --question FILE (or --resume DIR)');
      const { attributeFixture } = await import('../../app/attribute-fixture.js');
      const { formatAttribution, attributionJson } = await import('../../attribution/format-attribution.js');
      const { abort, quit, release } = stopOnSignals(output);
      const terminal = output.terminal;
      const globals = commonOptions(command);
      try {
        const result = await attributeFixture({
          ...globals,
          fixture,
          question: options.question,
          turns: options.turns,
          window: options.window,
          neutraliser:
            options.neutralText !== undefined
              ? { kind: 'text', text: options.neutralText }
              : options.patches !== undefined
                ? { kind: 'patches', dir: options.patches }
                : undefined,
          repsPerLook: options.repsPerLook,
          looks: options.looks,
          alpha: options.alpha,
          concurrency: options.concurrency,
          strategy: options.strategy,
          resume: options.resume,
          saveTo:
            options.save === undefined
              ? undefined
              : typeof options.save === 'string'
                ? options.save
                : await constructedFolder(globals),
          signal: abort.signal,
          quit: quit.signal,
          onWarning: (message) => output.err(`warning: ${message}`),
          onProgress: (look, progress) => {
            const line = `look ${look}: ${progressLine(progress)}`;
            if (terminal) terminal(`\r\x1b[2K${line}`);
            else output.err(line);
          },
          onLook: (look, counts) => {
            terminal?.('\n');
            const [base, ...variants] = counts.map((c) => `${c.pass}/${c.pass + c.fail}`);
            output.err(`look ${look} passed: base ${base}; variants ${variants.join(' ')}`);
          },
        });
        if (quit.signal.aborted) process.exit(130);
        if (options.json) {
          printJson(output, {
            dir: shownPath(result.dir),
            fixture: result.base,
            variants: result.variants.map((v) => ({
              label: v.label,
              turns: v.turns,
              name: v.name,
              file: shownPath(v.file),
            })),
            ...(attributionJson(result.outcome) as object),
            saved: result.saved.map(shownPath),
            html: shownPath(result.html),
          });
          return;
        }
        output.out(`${shownPath(result.dir)}: ${result.base} attributed over ${result.variants.length} variant(s)`);
        for (const line of formatAttribution(result.outcome)) output.out(line);
        for (const file of result.saved) output.out(`saved ${shownPath(file)}`);
        const worth = result.outcome.significant.filter(
          (label) => (result.outcome.ranking.find((r) => r.label === label)?.change ?? 0) > 0,
        );
        if (worth.length > 0 && result.saved.length === 0)
          output.out(
            `worth saving as constructed fixtures: ${worth.join(', ')} (turnkit attribute --resume ${shownPath(result.dir)} --save)`,
          );
        output.out(`page: ${shownPath(result.html)}`);
      } finally {
        release();
      }
    });
}

function alphaValue(value: string): number {
  const alpha = Number(value);
  if (!(alpha > 0 && alpha < 1)) throw new InvalidArgumentError(`expected a rate between 0 and 1, got "${value}"`);
  return alpha;
}

// --save with no folder: the project's constructed folder, as construct and edit write to.
async function constructedFolder(globals: ReturnType<typeof commonOptions>): Promise<string> {
  const { loadConfig } = await import('../../config/load.js');
  const { projectPaths } = await import('../../project/open-project.js');
  const config = await loadConfig({ configPath: globals.configPath, cwd: globals.cwd });
  return projectPaths(config).constructed;
}
