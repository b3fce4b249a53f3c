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
  const schemas = formatSchemas();
  for (const [name, text] of schemas) pages.set(`docs/reference/schemas/${name}`, text);
  // The sample project's copies beside its fixtures: what capture and construct would write there now.
  pages.set('fixtures/turnkit.fixture.schema.json', schemas.get('turnkit.fixture.schema.json')!);
  pages.set('constructed/turnkit.constructed.schema.json', schemas.get('turnkit.constructed.schema.json')!);
  return pages;
}
