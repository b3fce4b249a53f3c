import { apiReference } from './api-reference.js';
import { cliReference } from './cli-reference.js';
import { configReference } from './config-reference.js';
import { exitCodesReference } from './exit-codes-reference.js';
import { formatSchemas } from './format-schemas.js';
import { withLayersDrawing } from './layers-drawing.js';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

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
  // Pages written by hand around a drawing of the layers, which comes from the architecture test's table.
  for (const path of ['docs/architecture.md', 'CONTRIBUTING.md'])
    pages.set(path, withLayersDrawing(await readFile(`${ROOT}${path}`, 'utf8'), path));
  return pages;
}
