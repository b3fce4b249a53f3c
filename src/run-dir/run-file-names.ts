// The names of files in a run directory that readers and writers share, in a module of their own that imports
// nothing: `turnkit report` reads by these names, and taking them from the writers' modules loaded node:crypto (for
// temporary names and hashes) into every report.

/** The copy of the rubric a run keeps (its path, version and sha256 are in the manifest). */
export const RUBRIC_FILE = 'rubric.md';

/** The file in a run directory where judge answers are kept, one JSON line each. */
export const JUDGE_CACHE_FILE = 'judge-cache.jsonl';
