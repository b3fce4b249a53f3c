import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// Tiers, each a vitest project, so that the fast loop runs only what it needs (`npm run test:unit`, ...):
//  - unit: no database, no process of its own (the terminal apps through ink-testing-library);
//  - integration-embedded / integration-postgres: the library against one backend each (postgres when
//    TEST_DATABASE_URL is set); test/helpers/test-db.ts BACKENDS follows TURNKIT_TEST_BACKEND;
//  - e2e: the built binary, for what only a process shows (exit codes, signals, terminals);
//  - bad-inputs: the corpus of test/bad-inputs/, one file per case with its exact error;
//  - faults: the fault matrix of test/faults/ (kills and hostile SUTs at every step);
//  - browser: pages in a headless Chromium (Debian's; TURNKIT_REQUIRE_BROWSER=1 makes a missing one a failure).
const GLOBAL_SETUP = ['test/helpers/global-setup.ts'];
const backends = ['embedded', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];
// Integration files with nothing to test on a second backend (the embedded server's lifecycle; judges against a fake
// HTTP server).
const EMBEDDED_ONLY = ['test/integration/embedded-server.test.ts', 'test/integration/judge-model.test.ts'];

const ENV = { DATABASE_URL: '', TURNKIT_SCRUB_KEY: 'turnkit-test-scrub-key: not a secret' };

const tier = (name: string, test: TestProjectInlineConfiguration['test']): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, ...test },
});

export default defineConfig({
  test: {
    // Two cores, but the files wait on databases, child processes and browsers a good share of their time: a third
    // worker fills those waits (the suite's CPU time on 2 workers was about 45% of twice its wall time).
    maxWorkers: 3,
    // A process per file (vitest's default), though one process for all of a worker's files saved about a sixth of
    // the suite's CPU time: with it, a file's leftovers (tsx's esbuild service stopped, a working directory gone)
    // failed a later file's TypeScript migrations ("The service was stopped: spawn esbuild ENOENT").
    isolate: true,
    // A loaded machine (two suites at once) bounds a hang, not a speed: these are far above any normal duration.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // A developer's DATABASE_URL must not redirect tests that mean the embedded database; the sample config's scrub
    // rules need a key, which the CLI reads from the environment (test/helpers/scrub-key.ts).
    env: ENV,
    projects: [
      tier('unit', { include: ['test/unit/**/*.test.ts', 'test/tui/**/*.test.tsx'] }),
      ...backends.map((backend) =>
        tier(`integration-${backend}`, {
          include: ['test/integration/**/*.test.ts'],
          exclude: backend === 'embedded' ? [] : EMBEDDED_ONLY,
          globalSetup: GLOBAL_SETUP,
          env: { ...ENV, TURNKIT_TEST_BACKEND: backend },
        }),
      ),
      tier('e2e', {
        include: ['test/e2e/**/*.test.ts'],
        exclude: ['test/e2e/bad-inputs.test.ts'],
        globalSetup: GLOBAL_SETUP,
      }),
      tier('bad-inputs', { include: ['test/e2e/bad-inputs.test.ts'], globalSetup: GLOBAL_SETUP }),
      // The fault matrix: kills, signals and hostile SUTs at every step, checked against per-table checksums.
      tier('faults', { include: ['test/faults/**/*.test.ts'], globalSetup: GLOBAL_SETUP }),
      tier('browser', {
        include: ['test/browser/**/*.test.ts'],
        globalSetup: [...GLOBAL_SETUP, 'test/helpers/page-script-setup.ts'],
      }),
      // A game's own suite as a user writes it, importing the built package by name (turnkit, turnkit/testing),
      // once per backend; its global setup reads GAME_TESTS_BACKEND from the environment vitest was started with.
      ...backends.map((backend) =>
        tier(`game-tests-${backend}`, {
          include: ['examples/game-tests/**/*.test.ts'],
          globalSetup: [`examples/game-tests/global-setup-${backend}.ts`],
        }),
      ),
    ],
  },
});
