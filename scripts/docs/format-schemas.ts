// The JSON Schemas of turnkit's file formats, as the code emits them (the same functions capture and construct use
// to write `turnkit.fixture.schema.json` and `turnkit.constructed.schema.json` beside the files), copied into
// docs/reference/schemas/ so that the format pages can link them; the run manifest's comes from its zod schema.
import { z } from 'zod';
import { constructedJsonSchema } from '../../src/fixture/constructed/constructed-format.js';
import { fixtureJsonSchema, serializeDocument } from '../../src/fixture/format.js';
import { manifestSchema, RUN_FORMAT } from '../../src/run-dir/manifest.js';

/** Each format's JSON Schema by its file name under docs/reference/schemas/. */
export function formatSchemas(): Map<string, string> {
  const manifest = {
    ...(z.toJSONSchema(manifestSchema, { unrepresentable: 'any', cycles: 'ref' }) as Record<string, unknown>),
    title: 'turnkit run manifest',
    $id: `https://turnkit.dev/schema/${RUN_FORMAT}.json`,
  };
  return new Map([
    ['turnkit.fixture.schema.json', serializeDocument(fixtureJsonSchema())],
    ['turnkit.constructed.schema.json', serializeDocument(constructedJsonSchema())],
    ['turnkit.run.schema.json', serializeDocument(manifest)],
  ]);
}
