import type { Command } from 'commander';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';
import { commonOptions, positiveInt } from '../global-options.js';

/** `turnkit plan QUESTION`: power before the run. */
export function registerPlan(program: Command, output: Output): void {
  program
    .command('plan')
    .description("what a question's reps can show before any rep runs: detectable differences and reps needed")
    .argument('<question>', 'question file (questions/ID.yaml)')
    .option('--reps <n>', "reps per fixture to plan for (default: the question's)", positiveInt)
    .option('--from <rate>', 'with --to: the reps that tell these two rates apart', (value) => Number(value))
    .option('--to <rate>', 'with --from', (value) => Number(value))
    .option('--json', 'print the plan as JSON')
    .addHelpText(
      'after',
      examples(
        'turnkit plan questions/places.yaml',
        'turnkit plan questions/places.yaml --reps 30 --from 0.2 --to 0.8',
      ),
    )
    .action(async (question: string, options, command: Command) => {
      const { planQuestion, formatPlan } = await import('../../stats/plan-question.js');
      const { TurnkitError } = await import('../../errors.js');
      if ((options.from === undefined) !== (options.to === undefined))
        throw new TurnkitError('USAGE', 'give --from and --to together');
      const { commandContext } = await import('../../app/command-context.js');
      const project = await commandContext(commonOptions(command));
      const plan = await planQuestion(project, {
        question,
        reps: options.reps,
        pair: options.from === undefined ? undefined : { from: options.from, to: options.to },
      });
      if (options.json) return printJson(output, plan);
      for (const line of formatPlan(plan)) output.out(line);
    });
}
