import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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
import { EDGES, RANKS } from '../helpers/layers.js';

const SRC = resolve(import.meta.dirname, '../../src');

// The layers and their ranks are test/helpers/layers.ts's table, which the documentation draws. Type-only imports are
// erased at build time and take no part in the load order: a format may name a type of the layer that fills it (the
// question's SUT config types from sut/), so they are not ranked.

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

  // Type imports are not ranked, but a record type shared across layers sits low (ToolCall with the SUTs, Spend with
  // the model client, ScreenResult with the checks' format), so that nearly all of them point down as well. These
  // are the ones left; a new one fails here until its type moves down or is added with the reason.
  it('type imports point up only where listed', () => {
    const upward: string[] = [];
    for (const [key, crossing] of layerEdges(edges)) {
      const [from, to] = key.split(' -> ') as [string, string];
      if ((RANKS[to] ?? Number.POSITIVE_INFINITY) < (RANKS[from] ?? Number.NEGATIVE_INFINITY)) continue;
      for (const edge of crossing) if (edge.typeOnly) upward.push(`${edge.from} -> ${edge.to}`);
    }
    expect(upward.sort()).toEqual([
      // The manifest, whose screens the question's checks name.
      'checks/question-screens.ts -> run-dir/manifest.js',
      // RepRecord: the rep record's type, which screens, checks and survival read.
      'checks/run-checks.ts -> run-dir/rep-record.js',
      'question/check-screens.ts -> run-dir/rep-record.js',
      'question/state-screens.ts -> run-dir/rep-record.js',
      // Statistics over the run's marks and report.
      'stats/agreement.ts -> run-dir/marks/read-marks.js',
      'stats/consistency.ts -> report/build-report.js',
      'stats/survival.ts -> run-dir/marks/marks-file.js',
      'stats/survival.ts -> run-dir/rep-record.js',
      // A format naming the type of the layer that fills it: the question's SUT config.
      'sut/call-sut.ts -> question/load-question.js',
      'sut/sut-secrets.ts -> question/question-format.js',
    ]);
  });

  it('no layer cycle', () => {
    expect(cyclesOf(edges)).toEqual([]);
  });

  it('no folder of src/ holds more than 25 files at one level (a reader can name what each holds)', () => {
    const crowded: string[] = [];
    const visit = (dir: string): void => {
      const entries = readdirSync(dir, { withFileTypes: true });
      const files = entries.filter((entry) => entry.isFile()).length;
      if (files > 25) crowded.push(`${relative(SRC, dir) || '.'}: ${files} files`);
      for (const entry of entries) if (entry.isDirectory()) visit(join(dir, entry.name));
    };
    visit(SRC);
    expect(crowded).toEqual([]);
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

// The page script (view/client/) is bundled for a browser with the modules of src/ it imports: a module it reaches by
// a value import, in its folder or not, must hold no Node-only code. Node's modules and packages (pg, markdown-it)
// are what it may not import; biome holds the folder itself to Node's globals, and the bundle's test to its text.
const PACKAGE_IMPORT =
  /(?:^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s*|^\s*import\s*|\bimport\(\s*)'([^.'][^']*)'/gm;

/** `file -> module` for each Node module or package imported by a module the page script reaches by value imports. */
function pageNodeImports(src: string): string[] {
  const files = sourceFiles(src).map((file) => relative(src, file));
  const fileOf = (to: string): string | undefined => files.find((file) => file.replace(/\.tsx?$/, '.js') === to);
  const valueEdges = importEdges(src).filter((edge) => !edge.typeOnly);
  const reached = new Set(files.filter((file) => layerOf(file) === 'view/client'));
  for (const file of reached)
    for (const edge of valueEdges) if (edge.from === file && fileOf(edge.to)) reached.add(fileOf(edge.to)!);
  return [...reached].flatMap((file) =>
    [...readFileSync(join(src, file), 'utf8').matchAll(PACKAGE_IMPORT)].map(([, module]) => `${file} -> ${module}`),
  );
}

describe('architecture: the page script reaches no Node-only code', () => {
  it('no module the page imports by value, in its folder or not, imports a Node module or a package', () => {
    expect(pageNodeImports(SRC)).toEqual([]);
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
  // The page script reaching Node-only code: markdown-it through markdown-doc.ts, node:fs through page-script.ts.
  appendFileSync(
    join(copy, 'view', 'client', 'browser', 'main.ts'),
    "export { markdownDoc } from '../../markdown-doc.js';\nexport { pageScript } from '../../page-script.js';\n",
  );
  const bad = importEdges(copy);

  it('an upward import fails the ranks', () => {
    expect(upwardImports(edges)).toEqual([]);
    expect(upwardImports(bad)).toEqual(['run-dir/cycle.ts -> pipeline/run.js', 'util/upward.ts -> report/report.js']);
  });

  it('a cycle fails the cycle check', () => {
    expect(cyclesOf(edges)).toEqual([]);
    // The upward import alone makes one cycle through many layers; the run-dir one alone, the cycle of two.
    expect(cyclesOf(bad.filter((edge) => edge.from !== 'util/upward.ts'))).toEqual(['pipeline <-> run-dir']);
    expect(cyclesOf(bad).length).toBe(1);
  });

  it('process.cwd() in a library file fails the process rules', () => {
    expect(processOffenders(copy)).toEqual(['util/upward.ts: asks process.cwd()']);
  });

  it('a lower reader of a run in marks/ fails the readRun rule', () => {
    expect(runReaderOffenders(copy)).toEqual(['report/own-reader.ts: readManifest']);
  });

  it('Node-only code the page reaches fails the page rule', () => {
    expect(pageNodeImports(SRC)).toEqual([]);
    expect(pageNodeImports(copy).sort()).toEqual([
      'version.ts -> node:fs',
      'version.ts -> node:path',
      'version.ts -> node:url',
      'view/markdown-doc.ts -> markdown-it',
      'view/page-script.ts -> node:fs',
      'view/page-script.ts -> node:path',
    ]);
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
