// turnkit/testing: scratch campaigns for a game's own tests (vitest fixtures, or a plain helper for any runner).
export {
  turnkitFixtures,
  type TurnkitFixtureOptions,
  type TurnkitFixtures,
  type TurnkitFixtureTypes,
} from './vitest-fixtures.js';
export { seedScratch, withScratchCampaign, type TestCampaign, type TestDb } from './seed-scratch.js';
export { openProject, type OpenProjectOptions, type Project, type ProjectPaths } from '../project/open-project.js';
