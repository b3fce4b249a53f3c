// The layers of src/, lowest first: one table that the architecture test enforces (test/unit/architecture.test.ts)
// and the documentation draws (npm run docs writes it into docs/architecture.md and CONTRIBUTING.md), so that the
// picture a newcomer reads is the rule the test checks. A layer's code imports only layers of a lower rank; layers of
// one rank are peers that never import each other. A new folder gets a row here, or the test fails.

/** One layer: a folder of src/ (view's server and client are layers of their own), its rank and what it holds. */
export interface Layer {
  folder: string;
  rank: number;
  /** One sentence: what a reader finds there. */
  what: string;
  /** An edge over the library: it may touch the process (environment, working folder, signals, output). */
  edge?: true;
}

/** Every layer, lowest rank first. */
export const LAYERS: readonly Layer[] = [
  {
    folder: 'util',
    rank: 0,
    what: 'shown paths, bounded reads, text; process/: child processes, locks, atomic writes; json/',
  },
  {
    folder: 'db',
    rank: 1,
    what: 'connect, embedded server, migrate, introspect: the only place that knows the backend',
  },
  {
    folder: 'model',
    rank: 1,
    what: 'the one model client (OpenAI and Anthropic SDKs) for the http SUT, the player and the judges',
  },
  { folder: 'config', rank: 2, what: 'schema, loader, config places in messages' },
  { folder: 'sut', rank: 2, what: 'the SUT kinds, one file each, registered in sut-kinds.ts' },
  { folder: 'project', rank: 3, what: 'the ProjectContext type and openProject: what every operation takes' },
  {
    folder: 'fixture',
    rank: 4,
    what: 'format, value codec, load any fixture, show; graph/: the game resolved against the catalog; turns/: turns and slicing; capture/: reading a campaign into fixtures; scrub/; constructed/: constructed fixtures (changesets, materialize, rebase, the edit session, verify)',
  },
  {
    folder: 'scratch',
    rank: 5,
    what: 'the scratch session; remap/ and database/: the two strategies behind one interface (scratch-strategy.ts); effects/: what the SUT changed',
  },
  { folder: 'init', rank: 5, what: 'turnkit init: the game guessed from the catalog, starter files' },
  { folder: 'sample', rank: 5, what: "the sample game's world and sessions" },
  { folder: 'question', rank: 6, what: "the question format, checks' and rollouts' formats, case files, rep limits" },
  { folder: 'upgrade', rank: 6, what: "turnkit upgrade: fixtures brought to the game's current migrations" },
  {
    folder: 'run-dir',
    rank: 7,
    what: 'the run directory: readRun (the one reader) and runWriter (the one writer); manifest, rep records, run state, rep order; marks/: marks files and their history',
  },
  {
    folder: 'stats',
    rank: 7,
    what: 'intervals, exact tests, kappa, corrected rates, power, survival (pure functions)',
  },
  {
    folder: 'checks',
    rank: 7,
    what: 'the deterministic checks and screens applied to a rep or a turn (terms, patterns, effects, tools)',
  },
  { folder: 'rollout', rank: 8, what: 'several turns per rep, the simulated player' },
  {
    folder: 'judge',
    rank: 8,
    what: "the graders that write marks files: the question's checks, LLM judges (cache, prompt, verdicts)",
  },
  { folder: 'marking', rank: 8, what: 'a person marking: the marking session, blind re-marks, agree' },
  {
    folder: 'pipeline',
    rank: 9,
    what: 'the rep loop (start or resume, reps with their budget and progress, finish), verify',
  },
  { folder: 'testing', rank: 9, what: 'turnkit/testing' },
  {
    folder: 'report',
    rank: 10,
    what: "a run's report: numbers, trust, comparisons, CI formats' text, the outcome policy, held-out looks",
  },
  { folder: 'shard', rank: 10, what: '--shard from the environment, merging shard directories' },
  {
    folder: 'attribution',
    rank: 10,
    what: 'turnkit attribute: neutralised variants of a fixture run through the pipeline, ranked',
  },
  { folder: 'view', rank: 11, what: "the HTML report's data and page" },
  {
    folder: 'app',
    rank: 12,
    what: "the ProjectContext from flags, env and cwd (command-context.ts), the report formats' map (report-formats.ts)",
    edge: true,
  },
  {
    folder: 'view/client',
    rank: 12,
    what: "the page's script: browser code, bundled with the browser-safe modules of src/ it imports",
  },
  { folder: 'tui', rank: 12, what: 'the ink apps: the editor, the marker, the rebase resolver', edge: true },
  { folder: 'view/server', rank: 13, what: "the local viewer's HTTP server", edge: true },
  {
    folder: 'demo',
    rank: 14,
    what: 'the demo (it prints its steps and passes the environment to the judge)',
    edge: true,
  },
  { folder: 'cli', rank: 15, what: 'commander: parses flags, reads the environment, owns signals, prints', edge: true },
];

/** Each layer's rank by folder. */
export const RANKS: Readonly<Record<string, number>> = Object.fromEntries(
  LAYERS.map((layer) => [layer.folder, layer.rank]),
);

/** The edges over the library: the only layers that touch the process. */
export const EDGES: ReadonlySet<string> = new Set(LAYERS.filter((layer) => layer.edge).map((layer) => layer.folder));
