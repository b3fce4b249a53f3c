// What every test file of the game suite shares: the project (the repository's committed fixtures, on the database
// the global setup made) and the vitest fixtures of turnkit/testing for one fixture.
import { fileURLToPath } from 'node:url';
import { inject, test as base } from 'vitest';
import { sampleGameConfig } from 'turnkit';
import { turnkitFixtures, type TurnkitFixtureTypes } from 'turnkit/testing';

const PROJECT = fileURLToPath(new URL('../..', import.meta.url));

const { databaseUrl, dataDir } = inject('gameDatabase');
const config = dataDir ? { ...sampleGameConfig, database: { embedded: { dataDir } } } : sampleGameConfig;

/** A vitest `test` whose `campaign` is a fresh scratch campaign of the captured turn 23 (or the fixture overridden). */
export const test = base.extend<TurnkitFixtureTypes>(
  turnkitFixtures({ fixture: 'fixtures/meridian-turn-23.json', cwd: PROJECT, config, databaseUrl }),
);
