import { apiReference } from './api-reference.js';
import { cliReference } from './cli-reference.js';
import { configReference } from './config-reference.js';
import { exitCodesReference } from './exit-codes-reference.js';
import { formatSchemas } from './format-schemas.js';

/** Every generated page by its path in the repository. */
export async function generatedPages(): Promise<Map<string, string>> {
  const pages = new Map([
    ['docs/reference/cli.md', await cliReference()],
    ['docs/reference/config.md', configReference()],
    ['docs/reference/exit-codes.md', await exitCodesReference()],
    ['docs/reference/api.md', apiReference()],
  ]);
  for (const [name, text] of formatSchemas()) pages.set(`docs/reference/schemas/${name}`, text);
  return pages;
}
