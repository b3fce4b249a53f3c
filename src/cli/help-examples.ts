/**
 * The `Examples:` section a command adds to its help (`addHelpText('after', ...)`): lines to paste in the sample
 * project (this repository, or any copy of its fixtures/, constructed/ and questions/ with `turnkit sample --turns
 * 40` run once). STAMP stands for a run's folder name and KEY for a scratch campaign's key, as the commands print
 * them. `npm run docs` copies the section into docs/reference/cli.md.
 */
export function examples(...lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}
