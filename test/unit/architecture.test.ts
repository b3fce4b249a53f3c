import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The library takes its resources as arguments: these folders never touch the process (its environment, exit,
// standard streams or signals) and never import the command line. cli/, app/, tui/, demo/, sample/ and view's server
// are the edges that do.
const SRC = resolve(import.meta.dirname, '../../src');
const DOMAIN = [
  'pipeline',
  'sut',
  'model',
  'marks',
  'upgrade',
  'construct',
  'scratch',
  'fixture',
  'db',
  'config',
  'project',
  'testing',
  'util',
];
// init/ writes starter files whose text mentions process.env; view's non-server files build pages and data.
const DOMAIN_FILES = [...DOMAIN, 'init', 'view'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'server' || name === 'client' ? [] : filesUnder(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

// Code only: comments and string/template literals (starter files' text, messages) say what they like.
function codeOf(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/`(?:\\[\s\S]|\$\{[^}]*\}|[^`\\])*`/g, '``')
    .replace(/'(?:\\.|[^'\\\n])*'/g, "''");
}

// view-command.ts starts the view server: the view's edge, like the server itself.
const files = DOMAIN_FILES.flatMap((folder) => filesUnder(join(SRC, folder))).filter(
  (file) => relative(SRC, file) !== join('view', 'view-command.ts'),
);
const importsOf = (text: string): string[] =>
  [...text.matchAll(/(?:from|import\()\s*'([^']+)'/g)].map((match) => match[1]!).filter((spec) => spec.startsWith('.'));

describe('architecture: the library never touches the process', () => {
  it('finds the domain files', () => {
    expect(files.length).toBeGreaterThan(150);
  });

  const rules: [string, RegExp][] = [
    ['reads process.env', /\bprocess\.env\b/],
    ['calls process.exit', /\bprocess\.exit\b/],
    ['writes process.stdout or process.stderr', /\bprocess\.(stdout|stderr)\b/],
    ['installs a process signal handler', /\bprocess\.(on|once|addListener|prependListener)\(\s*'SIG/],
    ['writes to the console', /\bconsole\.(log|error|warn|info)\b/],
  ];
  for (const [what, pattern] of rules) {
    it(`no domain file ${what}`, () => {
      const offenders = files
        .filter((file) => pattern.test(codeOf(readFileSync(file, 'utf8'))))
        .map((file) => relative(SRC, file));
      expect(offenders).toEqual([]);
    });
  }

  it('no domain file imports the command line, the app layer, the terminal apps or the view server', () => {
    const offenders = files.flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .map((spec) => relative(SRC, resolve(dirname(file), spec)))
        .filter((target) => /^(cli|app|tui|demo)\//.test(target) || target.startsWith('view/server/'))
        .map((target) => `${relative(SRC, file)} -> ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it('db/ imports nothing above it: only db/, util/ and errors', () => {
    const offenders = filesUnder(join(SRC, 'db')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .map((spec) => relative(SRC, resolve(dirname(file), spec)))
        .filter((target) => !/^(db|util)\//.test(target) && target !== 'errors.js' && target !== 'version.js')
        .map((target) => `${relative(SRC, file)} -> ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it('only db/ branches on which backend it is (db/backend-traits.ts says what differs)', () => {
    const offenders = files
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
