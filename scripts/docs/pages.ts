import { cliReference } from './cli-reference.js';

/** Every generated page by its path in the repository. */
export async function generatedPages(): Promise<Map<string, string>> {
  return new Map([['docs/reference/cli.md', await cliReference()]]);
}
