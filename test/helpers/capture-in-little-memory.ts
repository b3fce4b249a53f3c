// A capture in a child process whose heap limit the test sets (node --max-old-space-size): `streamed` writes the
// fixture's text row by row from rows all in memory, `whole` its whole text in one string, then the file, `rows` as
// `turnkit capture` does (streamTo: keys first, rows read, scrubbed and written batch by batch).
// Arguments: database URL, campaign key, output file, mode. Exits 0 once the file is written.
import { configSchema } from '../../src/config/schema.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { usingDb } from '../../src/db/connect.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { writeFixtureFile } from '../../src/fixture/capture/write-fixture.js';
import { writeFileAtomic } from '../../src/util/process/atomic-write.js';
import { TEST_SCRUB } from './scrub-key.js';

const [url, campaign, file, mode] = process.argv.slice(2) as [string, string, string, 'streamed' | 'whole' | 'rows'];
const config = { ...configSchema.parse(sampleGameConfig), baseDir: process.cwd(), file: undefined };
await usingDb(config, { databaseUrl: url }, async (db) => {
  const request = {
    campaign,
    turns: { latest: true },
    scrub: TEST_SCRUB,
    now: new Date('2026-03-14T00:00:00Z'),
  } as const;
  if (mode === 'rows') return void (await captureFromDb(db, config, { ...request, streamTo: async () => file }));
  const [fixture] = (await captureFromDb(db, config, request)).fixtures;
  if (mode === 'streamed') await writeFixtureFile(file, fixture!);
  else await writeFileAtomic(file, serializeDocument(fixture));
});
