import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Each integration file boots its own embedded database; two cores do not gain from more workers.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['test/helpers/global-setup.ts'],
    // A developer's DATABASE_URL must not redirect tests that mean the embedded database.
    // The sample config's scrub rules need a key; the CLI reads it from here (test/helpers/scrub-key.ts).
    env: { DATABASE_URL: '', TURNKIT_SCRUB_KEY: 'turnkit-test-scrub-key: not a secret' },
  },
});
