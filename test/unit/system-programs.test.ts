import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SYSTEM_PROGRAMS } from '../helpers/system-programs.js';

// `npm test` passes on a machine with only Node: what the suite runs comes from npm, or is one of the basics every
// machine has, or is a system program whose tests skip with a notice when it is missing (test/helpers/system-programs.ts).
// This reads every test source for the programs it starts, so that a new system dependency cannot creep in unguarded.
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const ROOTS = ['test', 'examples/game-tests'];

/** Node and git, and the POSIX basics (coreutils, util-linux, procps) every Linux machine has. */
const BASICS = new Set([
  ...['node', 'npm', 'git', 'sh'],
  ...['cat', 'echo', 'printf', 'sleep', 'kill', 'true', 'false', 'yes', 'seq', 'env', 'id', 'ps', 'mkfifo'],
  // As root only (the full-disk fault test mounts a tmpfs; a private cluster runs as the postgres user).
  ...['mount', 'umount', 'runuser'],
]);

/** How each system program's tests are guarded: a file that runs it names one of these. */
const GUARDS: Record<string, { program: keyof typeof SYSTEM_PROGRAMS; guard: RegExp }> = {
  tmux: { program: 'tmux', guard: /\bhasTmux\b|systemProgram\('tmux'/ },
  chromium: { program: 'chromium', guard: /\bhasBrowser\b|systemProgram\('chromium'/ },
  psql: { program: 'psql', guard: /systemProgram\('psql'[,)]/ },
  python3: { program: 'python3', guard: /systemProgram\('python3'\)/ },
  initdb: { program: 'postgres-server', guard: /systemProgram\('postgres-server'|privatePostgresMissing/ },
  pg_ctl: { program: 'postgres-server', guard: /systemProgram\('postgres-server'|privatePostgresMissing/ },
};

/** Commands of config objects that no test runs (the secrets a SUT config names), by file. */
const NOT_RUN: Record<string, string[]> = { 'test/unit/redact-password.test.ts': ['sut'] };

/** Programs that need something the guard list does not cover: never to appear in a test. */
const NEVER = ['xmllint', 'docker', 'curl', 'wget', 'jq', 'perl', 'ruby', 'bash', 'zsh'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs|js|json|ya?ml|sh|py)$/.test(entry.name) ? [path] : [];
  });
}

/** The file's text without line comments and block comments' lines (a comment may name a program it does not run). */
function code(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
    .map((line) => line.replace(/\s\/\/\s.*$/, ''))
    .join('\n');
}

/** The programs a source starts by name: child_process calls with a literal, and SUT/player `command:` lists. */
function spawnedPrograms(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\b(?:spawn|spawnSync|execFile|execFileSync)\(\s*(['"`])([^'"`$]+)\1/g))
    found.push(match[2]!);
  for (const match of text.matchAll(/\b(?:exec|execSync)\(\s*(['"`])([^'"`$\s]+)/g)) found.push(match[2]!);
  for (const match of text.matchAll(/\bcommand: \[\s*\\?["']?([^,\]"'\\\s]+)/g)) found.push(match[1]!);
  return found;
}

/** Whether a source runs a program: named in quotes ('psql'), or as a command with arguments (psql "$URL", psql -X). */
function runs(text: string, program: string): boolean {
  return new RegExp(`['"\`]${program}['"\`]|(^|[\\s"'\`(|;])${program}\\s+[-"'$]`, 'm').test(text);
}

const FILES = ROOTS.flatMap((root) => sources(join(REPO, root))).filter(
  (file) => !file.endsWith('test/unit/system-programs.test.ts'),
);

describe('the programs the suite runs', () => {
  it('finds the programs of each kind of call (the check reads what it claims to)', () => {
    expect(
      spawnedPrograms(
        "spawn('tmux', []); execFileSync(\"psql\", x); spawn(process.execPath, []); exec('python3 x.py');\n" +
          "'sut: { type: command, command: [\"./a.sh\"] }' 'command: [node, sut.mjs]' command: ['sh', '-c', s]",
      ),
    ).toEqual(['tmux', 'psql', 'python3', './a.sh', 'node', 'sh']);
  });

  it('starts only node, git, the POSIX basics, its own scripts, or a guarded system program', () => {
    const unknown: string[] = [];
    for (const file of FILES) {
      for (const program of spawnedPrograms(code(readFileSync(file, 'utf8')))) {
        const local = program.startsWith('./') || program.startsWith('/') || program.includes('${');
        const node = program === 'process.execPath';
        const missingOnPurpose = program.includes('no-such-');
        const notRun = NOT_RUN[relative(REPO, file)]?.includes(program) ?? false;
        if (local || node || missingOnPurpose || notRun || BASICS.has(program) || program in GUARDS) continue;
        unknown.push(`${relative(REPO, file)}: ${program}`);
      }
    }
    expect(unknown, 'add the program to test/helpers/system-programs.ts and guard its tests').toEqual([]);
  });

  it('guards every test file that runs a system program, and runs none that is not from npm or guarded', () => {
    const unguarded: string[] = [];
    for (const file of FILES) {
      const shown = relative(REPO, file);
      // The helpers that drive a program are where its guard is made.
      if (/^test\/helpers\/(tmux|browser|private-postgres|system-programs)\.ts$/.test(shown)) continue;
      const text = code(readFileSync(file, 'utf8'));
      for (const [program, { guard }] of Object.entries(GUARDS))
        if (runs(text, program) && !guard.test(text)) unguarded.push(`${shown}: ${program}`);
      for (const program of NEVER) if (runs(text, program)) unguarded.push(`${shown}: ${program}`);
    }
    expect(unguarded).toEqual([]);
  });
});
