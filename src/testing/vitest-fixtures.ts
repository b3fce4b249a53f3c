import { openProject, type OpenProjectOptions, type Project } from '../project/open-project.js';
import { seedScratch, type TestCampaign } from './seed-scratch.js';

/** Which fixture each test gets, and how to open the project (as `openProject` takes it). */
export interface TurnkitFixtureOptions extends OpenProjectOptions {
  /**
   * The fixture file seeded for every test that asks for `campaign`, relative to the project folder; a describe
   * block takes another with `test.override({ fixture: '...' })`.
   */
  fixture: string;
}

type Use<T> = (value: T) => Promise<void>;

/** The fixtures `test.extend` takes: `project` once per worker, `campaign` fresh for each test that names it. */
export interface TurnkitFixtures {
  project: [(context: object, use: Use<Project>) => Promise<void>, { scope: 'worker' }];
  fixture: string;
  campaign: (context: { project: Project; fixture: string }, use: Use<TestCampaign>) => Promise<void>;
}

/** The fixtures' types by scope, as vitest's `test.extend<...>` takes them. */
export interface TurnkitFixtureTypes {
  $test: { fixture: string; campaign: TestCampaign };
  $worker: { project: Project };
}

/**
 * Vitest fixtures for a game's own test suite: each test that takes `campaign` gets a scratch campaign seeded from
 * the fixture, torn down after the test whatever it did; tests in parallel workers get campaigns of their own.
 * Call `test.extend` at the top level of a module (the project is opened once per worker).
 * @example
 * const test = base.extend<TurnkitFixtureTypes>(turnkitFixtures({ fixture: 'fixtures/meridian-turn-23.json' }));
 * test('reads the deck', async ({ campaign }) => { ... campaign.key, campaign.databaseUrl ... });
 */
export function turnkitFixtures(options: TurnkitFixtureOptions): TurnkitFixtures {
  const { fixture, ...projectOptions } = options;
  return {
    project: [
      // biome-ignore lint/correctness/noEmptyPattern: vitest reads what a fixture needs from this destructuring
      async ({}, use) => {
        const project = await openProject(projectOptions);
        try {
          await use(project);
        } finally {
          await project.close();
        }
      },
      { scope: 'worker' },
    ],
    fixture,
    campaign: async ({ project, fixture }, use) => {
      const campaign = await seedScratch(project, fixture);
      try {
        await use(campaign);
      } finally {
        await campaign.teardown();
      }
    },
  };
}
