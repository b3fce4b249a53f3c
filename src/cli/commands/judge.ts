import { basename, join } from 'node:path';
import { Option, type Command } from 'commander';
import { shownPath } from '../../util/shown-path.js';
import { TurnkitError } from '../../errors.js';
import { JUDGE_PROVIDERS } from '../../config/judge-providers.js';
import { commonOptions, positiveInt } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';
import type { ProjectContext } from '../../project/project-context.js';

/** `turnkit judge RUN_DIR [--checks] [--model NAME | --judge FILE]`. */
export function registerJudge(program: Command, output: Output): void {
  const command = program
    .command('judge')
    .description(
      'mark a run automatically into files of its own (never marks.csv): deterministic checks and/or an LLM judge',
    )
    .argument('<run-dir>', 'a run directory (runs/QUESTION/STAMP)');
  addJudgeOptions(command)
    .addHelpText(
      'after',
      examples(
        'turnkit judge runs/places/STAMP --checks               # marks.checks.csv',
        'turnkit judge runs/places/STAMP --judge examples/judge.yaml',
      ),
    )
    .action((dir: string, options: JudgeFlags, command: Command) => judgeAction(dir, options, command, output));
}

/** The judge command's flags. */
function addJudgeOptions(command: Command): Command {
  return command
    .option('--checks', "apply the question's deterministic checks; writes marks.checks.csv with a reason per rep")
    .option('--model <name>', 'an LLM judge: writes marks.judge-MODEL.csv and judge-MODEL.jsonl')
    .option(
      '--judge <file>',
      'judge settings (YAML or JSON: provider, model, baseUrl, apiKeyEnv, ...); flags override them',
    )
    .addOption(new Option('--provider <provider>', "the judge's API").choices([...JUDGE_PROVIDERS]))
    .option('--base-url <url>', 'an OpenAI-compatible base URL, such as http://127.0.0.1:11434/v1 (Ollama)')
    .option('--api-key-env <name>', "the environment variable holding the judge's API key")
    .option('--concurrency <n>', 'verdicts requested at a time', positiveInt)
    .option(
      '--state',
      "show the judge the game's state beside each response (what the SUT changed, the question's facts): marks.judge-MODEL-state.csv",
    )
    .option(
      '--question <file>',
      "use this question file's current checks and rubric instead of the ones the run recorded",
    )
    .option('--json', 'print the result as JSON');
}

/** The judge command's flags as commander gives them. */
interface JudgeFlags extends ModelFlags {
  checks?: boolean;
}

/** Judges the run with the checks and/or the LLM the flags (or the config) name, then says what to do with it. */
async function judgeAction(dir: string, options: JudgeFlags, command: Command, output: Output): Promise<void> {
  const { loadConfig } = await import('../../config/load.js');
  const { projectPaths } = await import('../../project/open-project.js');
  const cwd = process.cwd();
  const config = await loadConfig({ configPath: commonOptions(command).configPath, cwd });
  // Relative paths of the input are the shell's; a question's rubric path is the project's.
  const project = { config, paths: projectPaths(config), cwd };
  const { recordRunLook } = await import('../heldout-use.js');
  // With neither flag, the judge the config names is the one meant.
  const model =
    options.model !== undefined || options.judge !== undefined || (!options.checks && config.judge !== undefined);
  if (!options.checks && !model)
    throw new TurnkitError(
      'USAGE',
      "say how to judge: --checks (the question's deterministic checks) and/or --model NAME or --judge FILE (an LLM), or name a judge in the config",
    );
  await recordRunLook('judge', [dir]);
  const results: Record<string, unknown> = {};
  const written: string[] = [];
  if (options.checks) await judgeChecksFlags(dir, options, project, output, results, written);
  if (model) await judgeByModelFlags(dir, options, project, output, results, written);
  if (options.json) return printJson(output, results);
  const last = written[written.length - 1]!;
  output.out(
    `report from it: turnkit report ${shownPath(dir)} --marks ${last}; agreement with your marks: turnkit agree ${join(shownPath(dir), 'marks.csv')} ${join(shownPath(dir), last)}`,
  );
}

/** `--checks`: the question's deterministic checks into marks.checks.csv, and the line that says so. */
async function judgeChecksFlags(
  dir: string,
  options: JudgeFlags,
  project: ProjectContext,
  output: Output,
  results: Record<string, unknown>,
  written: string[],
): Promise<void> {
  const { judgeChecks } = await import('../../judge/judge-checks.js');
  const result = await judgeChecks(project, { dir, question: options.question });
  results.checks = { ...result, file: shownPath(result.file), screensFile: shownPath(result.screensFile) };
  written.push(basename(result.file));
  if (!options.json)
    output.out(
      `wrote ${shownPath(result.file)}: ${result.pass} pass, ${result.fail} fail, ${result.error} error${result.na > 0 ? `, ${result.na} na (no screen applies)` : ''}${result.notRun > 0 ? `, ${result.notRun} not run` : ''}`,
    );
}

/** The judge command's flags that say which LLM judge, as commander gives them. */
interface ModelFlags {
  judge?: string;
  model?: string;
  provider?: (typeof JUDGE_PROVIDERS)[number];
  baseUrl?: string;
  apiKeyEnv?: string;
  concurrency?: number;
  state?: boolean;
  question?: string;
  json?: boolean;
}

/** `--model`/`--judge`: the LLM judge's settings from the flags, the file and the config; its marks; its outcome. */
async function judgeByModelFlags(
  dir: string,
  options: ModelFlags,
  project: ProjectContext,
  output: Output,
  results: Record<string, unknown>,
  written: string[],
): Promise<void> {
  const { judge } = await import('../../judge/judge-model.js');
  const { loadJudgeSettings } = await import('../../judge/load-judge-settings.js');
  const { outcomeError } = await import('../../report/outcome.js');
  const { config } = project;
  const settings = await loadJudgeSettings(
    options.judge,
    {
      model: options.model,
      provider: options.provider,
      baseUrl: options.baseUrl,
      apiKeyEnv: options.apiKeyEnv,
      concurrency: options.concurrency,
      ...(options.state ? { state: true } : {}),
    },
    config.judge,
  );
  const terminal = options.json ? undefined : output.terminal;
  const result = await judge(project, {
    dir,
    settings,
    price: config.prices[settings.model],
    env: process.env,
    question: options.question,
    onProgress: terminal
      ? (done, total) => terminal(`\r\x1b[2K[${done}/${total}] judged${done === total ? '\n' : ''}`)
      : undefined,
  });
  for (const warning of result.warnings) output.err(`warning: ${warning}`);
  results.model = { ...result, file: shownPath(result.file), verdictsFile: shownPath(result.verdictsFile) };
  written.push(basename(result.file));
  if (!options.json) {
    output.out(
      `wrote ${shownPath(result.file)}: ${result.pass} pass, ${result.fail} fail, ${result.na} na, ${result.error} error${result.notRun > 0 ? `, ${result.notRun} not run` : ''} (${result.cached} from the cache); reasons in ${shownPath(result.verdictsFile)}`,
    );
  }
  // Failing closed goes as far as the exit code: a script must not go on to report as if every rep were judged.
  const failure = outcomeError({ judge: result });
  if (failure) {
    if (options.json) printJson(output, results);
    throw failure;
  }
}
