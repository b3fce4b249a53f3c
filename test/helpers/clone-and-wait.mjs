// A process mid-run under the database strategy (the crash test): it clones a fixture three times, so that a clone
// is being made ahead for the next rep, tears the last one down, so that its drop runs behind, prints the registry
// ids it made, and waits to be killed with that work still under way.
import { readFile } from 'node:fs/promises';
import { configSchema } from '../../dist/src/config/schema.js';
import { openDb } from '../../dist/src/db/connect.js';
import { parseFixtureText } from '../../dist/src/fixture/read-fixture.js';
import { ScratchSession } from '../../dist/src/scratch/scratch-session.js';

const [databaseUrl, fixturePath, gameJson] = process.argv.slice(2);
const config = {
  ...configSchema.parse({ game: JSON.parse(gameJson), database: { url: databaseUrl } }),
  baseDir: process.cwd(),
  file: undefined,
};
const db = await openDb(config);
const fixture = parseFixtureText(await readFile(fixturePath, 'utf8'), fixturePath);
const session = new ScratchSession(db, { game: config.game, strategy: 'database' });
const live = [await session.seed(fixture), await session.seed(fixture), await session.seed(fixture)];
await live[2].teardown();
process.stdout.write(`${live.map((scratch) => scratch.id).join(' ')}\n`);
setInterval(() => {}, 60_000);
