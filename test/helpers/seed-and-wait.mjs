// A process that seeds a scratch campaign it owns, prints its id, and waits to be killed (the orphan test).
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
const scratch = await new ScratchSession(db, { game: config.game }).seed(fixture);
process.stdout.write(`${scratch.id}\n`);
setInterval(() => {}, 60_000);
