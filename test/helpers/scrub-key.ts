/** The scrub key in-process tests capture with (the CLI tests get it as TURNKIT_SCRUB_KEY from vitest.config.ts). */
export const TEST_SCRUB_KEY = 'turnkit-test-scrub-key: not a secret';

/** Capture's scrub options with the test key. */
export const TEST_SCRUB = { key: TEST_SCRUB_KEY } as const;
