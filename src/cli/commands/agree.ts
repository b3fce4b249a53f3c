import type { Command } from 'commander';
import { shownPath } from '../../util/shown-path.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit agree MARKS_A MARKS_B`. */
export function registerAgree(program: Command, output: Output): void {
  program
    .command('agree')
    .description("agreement of two marks files: ratio, Cohen's kappa, confusion matrix, every disagreement")
    .argument('<marks-a>', "a marks file (a human's, say)")
    .argument('<marks-b>', "another marks file of the same run (a judge's, or a blind re-mark)")
    .option('--json', 'print the result as JSON')
    .addHelpText('after', examples('turnkit agree runs/places/STAMP/marks.csv runs/places/STAMP/marks.checks.csv'))
    .action(async (a: string, b: string, options) => {
      const { agree } = await import('../../marking/agree.js');
      const { formatAgreement } = await import('../../marking/format-agreement.js');
      const { filesContext } = await import('../../app/files-context.js');
      const result = await agree(filesContext(), { a, b });
      if (options.json)
        return printJson(output, {
          ...result,
          a: shownPath(result.a),
          b: shownPath(result.b),
          run: result.run && shownPath(result.run),
        });
      for (const line of formatAgreement(result)) output.out(line);
    });
}
