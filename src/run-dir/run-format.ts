// Apart from manifest.ts (zod's schema): the lean reader of a manifest (lean-shapes.ts) checks it without zod.

/** The version tag of a run's manifest. */
export const RUN_FORMAT = 'turnkit.run/1';
