import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  importEdges,
  layerCycles,
  layerEdges,
  layerOf,
  sourceFiles,
  type ImportEdge,
} from '../helpers/import-graph.js';

const SRC = resolve(import.meta.dirname, '../../src');

// The layers of src/, lowest first (docs/architecture.md draws them): a layer's code imports only layers of a lower
// rank. Layers of one rank are peers that never import each other. A new folder gets a rank here, or this test fails.
// Type-only imports are erased at build time and take no part in the load order: a format may name a type of the
// layer that fills it (the question's SUT config types from sut/), so they are not ranked.
const RANKS: Record<string, number> = {
  util: 0,
  db: 1,
  // The one model client (OpenAI and Anthropic SDKs): the http SUT, the simulated player and the judges use it.
  model: 1,
  config: 2,
  // The SUT kinds, one file each, registered in sut-kinds.ts.
  sut: 2,
  // The project context type (config, paths, db, onWarning) and openProject: what every operation takes.
  project: 3,
  fixture: 4,
  scratch: 5,
  init: 5,
  sample: 5,
  question: 6,
  upgrade: 6,
  // The run directory: the one reader and writer of manifest, rep records, state, order and marks files.
  'run-dir': 7,
  // The report's and the judges' statistics (intervals, kappa, corrections, power), pure functions.
  stats: 7,
  // The question's deterministic checks applied to a rep or a turn.
  checks: 7,
  // Rollouts: several turns per rep, the simulated player.
  rollout: 8,
  // The graders that write a run's marks files: the checks and the LLM judges.
  judge: 8,
  // A person marking a run: the marking session, blind re-marks, agreement of two files.
  marking: 8,
  // The rep loop: a run started or resumed, its reps, budget and progress, and verify.
  pipeline: 9,
  testing: 9,
  // The report of a run in every format's numbers, and the outcome policy.
  report: 10,
  // Shards of a run: the shard from the environment, merging shard directories (with the runs' provenance).
  shard: 10,
  // Which upstream turn misleads the SUT: neutralised variants of a fixture run through the pipeline, ranked.
  attribution: 10,
  'view/client': 10,
  view: 11,
  // The edges: they read the environment and the working folder, own signals and print.
  app: 12,
  tui: 12,
  'view/server': 13,
  demo: 14,
  cli: 15,
};

/** The edges over the library: the only layers that touch the process. */
const EDGES = new Set(['cli', 'tui', 'view/server', 'demo', 'app']);

/** Every value import into a layer of the same or a higher rank (or one with no rank), as `file -> file`. */
function upwardImports(edges: readonly ImportEdge[]): string[] {
  const offenders: string[] = [];
  for (const [key, crossing] of layerEdges(edges)) {
    const [from, to] = key.split(' -> ') as [string, string];
    if ((RANKS[to] ?? Number.POSITIVE_INFINITY) < (RANKS[from] ?? Number.NEGATIVE_INFINITY)) continue;
    for (const edge of crossing) if (!edge.typeOnly) offenders.push(`${edge.from} -> ${edge.to}`);
  }
  return offenders.sort();
}

/** Layer cycles of the value imports (the load order): none may exist, whatever the ranks say. */
function cyclesOf(edges: readonly ImportEdge[]): string[] {
  return layerCycles(layerEdges(edges.filter((edge) => !edge.typeOnly))).map((cycle) => cycle.join(' <-> '));
}

// Code only: comments and string/template literals (starter files' text, messages) say what they like.
function codeOf(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/`(?:\\[\s\S]|\$\{[^}]*\}|[^`\\])*`/g, '``')
    .replace(/'(?:\\.|[^'\\\n])*'/g, "''");
}

const PROCESS_RULES: [string, RegExp][] = [
  ['reads process.env', /\bprocess\.env\b/],
  ['asks process.cwd()', /\bprocess\.cwd\s*\(/],
  ['calls process.exit', /\bprocess\.exit\b/],
  ['writes process.stdout or process.stderr', /\bprocess\.(stdout|stderr)\b/],
  ['installs a process signal handler', /\bprocess\.(on|once|addListener|prependListener)\(\s*'SIG/],
  ['writes to the console', /\bconsole\.(log|error|warn|info)\b/],
];

/** The library's files (every layer but the edges and view's browser client) of a src/ folder. */
function libraryFiles(src: string): string[] {
  return sourceFiles(src).filter((file) => {
    const layer = layerOf(relative(src, file));
    return layer !== undefined && !EDGES.has(layer) && layer !== 'view/client';
  });
}

/** `file: what it does` for each library file that touches the process. */
function processOffenders(src: string): string[] {
  return libraryFiles(src).flatMap((file) => {
    const code = codeOf(readFileSync(file, 'utf8'));
    return PROCESS_RULES.filter(([, pattern]) => pattern.test(code)).map(([what]) => `${relative(src, file)}: ${what}`);
  });
}

const edges = importEdges(SRC);

describe('architecture: layers', () => {
  it('finds the library and its imports', () => {
    expect(libraryFiles(SRC).length).toBeGreaterThan(250);
    expect(edges.length).toBeGreaterThan(1000);
  });

  it('every folder of src/ has a rank', () => {
    const layers = new Set(sourceFiles(SRC).map((file) => layerOf(relative(SRC, file))));
    layers.delete(undefined);
    expect([...layers].filter((layer) => RANKS[layer!] === undefined)).toEqual([]);
  });

  it('each layer imports only layers below it', () => {
    expect(upwardImports(edges)).toEqual([]);
  });

  it('no layer cycle', () => {
    expect(cyclesOf(edges)).toEqual([]);
  });

  it('db/ imports nothing above it: only db/, util/ and errors', () => {
    const offenders = edges
      .filter((edge) => layerOf(edge.from) === 'db')
      .filter((edge) => !/^(db|util)\//.test(edge.to) && edge.to !== 'errors.js' && edge.to !== 'version.js')
      .map((edge) => `${edge.from} -> ${edge.to}`);
    expect(offenders).toEqual([]);
  });
});

// The run directory's format lives in run-dir/: report/, judge/, marking/, stats/, view/ (its server included) and tui/
// read a run through readRun (run-dir/read-run.ts), which reads each file once per command, never through the lower
// readers it is made of (nor through a re-export of one).
const RUN_READERS = /\b(?:import|export)\s*\{([^}]*)\}\s*from\s*'[./]*run-dir\/(run-state|run-file|read-marks)\.js'/g;
const READING_LAYERS = ['report', 'judge', 'marking', 'stats', 'view', 'view/client', 'view/server', 'tui'];
const LOW_READERS = ['readRunState', 'readManifest', 'readRunText', 'fileInRun', 'readMarksFile', 'parseMarksText'];

/** `file: name` for each file of the reading layers that reads a run below readRun. */
function runReaderOffenders(src: string): string[] {
  return sourceFiles(src).flatMap((file) => {
    const path = relative(src, file);
    if (!READING_LAYERS.includes(layerOf(path) ?? '')) return [];
    const names = [...readFileSync(file, 'utf8').matchAll(RUN_READERS)].flatMap((match) =>
      match[1]!.split(',').map((name) => name.trim().replace(/^type\s+/, '')),
    );
    return names.filter((name) => LOW_READERS.includes(name)).map((name) => `${path}: ${name}`);
  });
}

describe('architecture: a run is read through readRun', () => {
  it('marks/, view/ and tui/ import no lower reader of a run directory', () => {
    expect(runReaderOffenders(SRC)).toEqual([]);
  });
});

describe('architecture: the library never touches the process', () => {
  it('no library file reads the environment or the working folder, exits, prints or handles signals', () => {
    expect(processOffenders(SRC)).toEqual([]);
  });

  it('only db/ branches on which backend it is (db/backend-traits.ts says what differs)', () => {
    const offenders = libraryFiles(SRC)
      .filter((file) => !relative(SRC, file).startsWith('db/'))
      .filter((file) => /\.backend\s*[!=]==?\s*'(embedded|postgres)'/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(offenders).toEqual([]);
  });

  it('the rules catch what they look for', () => {
    expect(codeOf("const a = process.env.X; // process.exit(1)\nconst s = 'process.stdout';")).toMatch(/process\.env/);
    expect(codeOf("// process.exit(1)\nconst s = 'process.stdout';")).not.toMatch(/process\.(exit|stdout)/);
  });
});

// The rules must be able to fail: a copy of src/ with one upward import, one cycle and one process.cwd() added.
describe('architecture: the checks fail on a bad copy', () => {
  const copy = mkdtempSync(join(tmpdir(), 'turnkit-architecture-'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  cpSync(SRC, copy, { recursive: true });
  writeFileSync(
    join(copy, 'util', 'upward.ts'),
    "import { report } from '../report/report.js';\nexport const where = process.cwd();\nexport { report };\n",
  );
  writeFileSync(join(copy, 'run-dir', 'cycle.ts'), "export { run } from '../pipeline/run.js';\n");
  writeFileSync(
    join(copy, 'report', 'own-reader.ts'),
    "import { readManifest, repId } from '../run-dir/run-state.js';\nexport { readManifest, repId };\n",
  );
  const bad = importEdges(copy);

  it('an upward import fails the ranks', () => {
    expect(upwardImports(edges)).toEqual([]);
    expect(upwardImports(bad)).toEqual(['run-dir/cycle.ts -> pipeline/run.js', 'util/upward.ts -> report/report.js']);
  });

  it('a cycle fails the cycle check', () => {
    expect(cyclesOf(edges)).toEqual([]);
    // The upward import alone makes one cycle through many layers; the run-dir one alone, the cycle of two.
    expect(cyclesOf(bad.filter((edge) => edge.from !== 'util/upward.ts'))).toEqual([
      'pipeline <-> rollout <-> run-dir',
    ]);
    expect(cyclesOf(bad).length).toBe(1);
  });

  it('process.cwd() in a library file fails the process rules', () => {
    expect(processOffenders(copy)).toEqual(['util/upward.ts: asks process.cwd()']);
  });

  it('a lower reader of a run in marks/ fails the readRun rule', () => {
    expect(runReaderOffenders(copy)).toEqual(['report/own-reader.ts: readManifest']);
  });

  it('copies every file', () => {
    const count = (dir: string): number =>
      readdirSync(dir).reduce(
        (sum, name) => sum + (statSync(join(dir, name)).isDirectory() ? count(join(dir, name)) : 1),
        0,
      );
    expect(count(copy)).toBe(count(SRC) + 3);
  });
});
