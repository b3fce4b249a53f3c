import type { Command } from 'commander';
import { shownPath } from '../../construct/load-fixture.js';
import { TurnkitError } from '../../errors.js';
import { judgeChecks } from '../../marks/judge-checks.js';
import { printJson, type Output } from '../output.js';

/** `turnkit judge RUN_DIR --checks [--question FILE]`. */
export function registerJudge(program: Command, output: Output): void {
  program
    .command('judge')
    .description('mark a run automatically into its own marks file (never marks.csv)')
    .argument('<run-dir>', 'a run directory (runs/QUESTION/STAMP)')
    .option('--checks', 'apply the question\'s deterministic checks; writes marks.checks.csv with a reason per rep')
    .option('--question <file>', 'take the checks from this question file instead of the ones recorded when the run started')
    .option('--json', 'print the result as JSON')
    .action(async (dir: string, options) => {
      if (!options.checks) throw new TurnkitError('USAGE', 'say how to judge: --checks (the question\'s deterministic checks)');
      const result = await judgeChecks({ dir, question: options.question });
      if (options.json) return printJson(output, { ...result, file: shownPath(result.file) });
      output.out(`wrote ${shownPath(result.file)}: ${result.pass} pass, ${result.fail} fail, ${result.error} error${result.notRun > 0 ? `, ${result.notRun} not run` : ''}`);
      output.out(`report from it: turnkit report ${shownPath(dir)} --marks marks.checks.csv`);
    });
}
