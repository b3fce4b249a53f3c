import type { Command } from 'commander';
import { shownPath } from '../../util/shown-path.js';
import { positiveInt } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { progressLine } from './run.js';
import { examples } from '../help-examples.js';

/** `turnkit demo [--dir DIR] [--reps N]`. */
export function registerDemo(program: Command, output: Output): void {
  program
    .command('demo')
    .description(
      'the whole loop on the embedded database: sample campaign, capture, constructed fixture, run, checks, report',
    )
    .option('--dir <dir>', "the demo's folder (default .turnkit/demo/STAMP); must be new or empty")
    .option('--reps <n>', 'reps per fixture', positiveInt, 10)
    .option(
      '--judge <file>',
      'also mark the reps with an LLM judge (settings file, as for turnkit judge) and show its agreement with the checks',
    )
    .option('--model <name>', "the judge's model (with --judge, overrides it; alone, an OpenAI-compatible judge)")
    .option('--base-url <url>', "the judge's OpenAI-compatible base URL")
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'turnkit demo                            # the whole loop on the embedded database',
        'turnkit demo --reps 3 --dir /tmp/turnkit-demo',
      ),
    )
    .action(async (options, command: Command) => {
      const { demo } = await import('../../demo/demo-command.js');
      const globals = command.optsWithGlobals<{ databaseUrl?: string; config?: string }>();
      if (globals.databaseUrl || process.env.DATABASE_URL)
        output.err('the demo runs on the embedded database; --database-url and DATABASE_URL are not used');
      const terminal = output.terminal;
      // A judge named by the flags, or by the config of the folder the demo is started from. With no config file
      // there (the sample game's config, which names no judge) the config and its schemas are not loaded here: the
      // demo starts filling its database that much sooner (demo-command.ts).
      const { findConfigFile } = await import('../../config/config-file.js');
      const config =
        globals.config !== undefined || findConfigFile(process.cwd()) !== undefined
          ? await (await import('../../config/load.js')).loadConfig({ configPath: globals.config })
          : undefined;
      // The judge's settings reader (and its schemas) only for a demo with a judge.
      const judge =
        options.judge !== undefined || options.model !== undefined || config?.judge !== undefined
          ? await (await import('../../judge/load-judge-settings.js')).loadJudgeSettings(
              options.judge,
              { model: options.model, baseUrl: options.baseUrl },
              config?.judge,
            )
          : undefined;
      const result = await demo({
        dir: options.dir,
        judge,
        reps: options.reps,
        onStep: (line) => output.err(`- ${line}`),
        onProgress: (progress) =>
          terminal
            ? terminal(`\r\x1b[2K  ${progressLine(progress)}${progress.done === progress.total ? '\n' : ''}`)
            : output.err(`  ${progressLine(progress)}`),
      });
      if (options.json) return printJson(output, shownResult(result));
      await printDemo(output, result);
    });
}

/** What the demo made. */
type DemoResult = Awaited<ReturnType<typeof import('../../demo/demo-command.js').demo>>;

/** The result as --json prints it: every path shown from the shell's folder. */
function shownResult(result: DemoResult) {
  return {
    ...result,
    dir: shownPath(result.dir),
    fixture: shownPath(result.fixture),
    constructed: shownPath(result.constructed),
    run: { ...result.run, dir: shownPath(result.run.dir) },
    checks: { ...result.checks, file: shownPath(result.checks.file) },
    report: {
      ...result.report,
      dir: shownPath(result.report.dir),
      marksFile: shownPath(result.report.marksFile),
    },
    html: shownPath(result.html),
    rollout: { ...result.rollout, run: { ...result.rollout.run, dir: shownPath(result.rollout.run.dir) } },
  };
}

/** The demo's report, what the constructed fixture moved, the rollout, the judge's agreement, and what to do next. */
async function printDemo(output: Output, result: DemoResult): Promise<void> {
  const { formatReport, pValue } = await import('../../report/format-report.js');
  const { formatAgreement } = await import('../../marking/format-agreement.js');
  output.out('');
  for (const line of formatReport(result.report, 'text')) output.out(line);
  output.out('');
  const pair = result.report.pairs[0];
  if (pair && pair.delta !== null && pair.p !== null) {
    output.out(
      `The constructed fixture changes one upstream narration and nothing else; its rate moved by ${pair.delta > 0 ? '+' : ''}${pair.delta.toFixed(2)} (Fisher exact p ${pair.p < 0.001 ? '< 0.001' : `= ${pValue(pair.p)}`}).`,
    );
  }
  const { formatSurvival } = await import('../../report/format-survival.js');
  output.out(`A rollout from the same fixtures (${shownPath(result.rollout.run.dir)}):`);
  for (const line of formatSurvival(result.rollout.survival, 'text')) output.out(line ? `  ${line}` : '');
  if (result.judged) {
    output.out(
      `The judge ${result.judged.result.grader} against the checks (the same reps, marked pass or fail by both):`,
    );
    for (const line of formatAgreement(result.judged.agreement)) output.out(line ? `  ${line}` : '');
    output.out('');
  }
  output.out(
    `Everything is in ${shownPath(result.dir)}; read a rep in ${shownPath(result.run.dir)}/reps/, mark by hand in its marks.csv, and report again with:`,
  );
  output.out(`  turnkit report ${shownPath(result.run.dir)} --marks marks.checks.csv`);
  output.out(`The report as a page (open it in a browser): ${shownPath(result.html)}`);
  output.out(`Read and mark the reps in a browser: turnkit view ${shownPath(result.run.dir)}`);
}
