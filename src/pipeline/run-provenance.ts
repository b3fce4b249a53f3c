import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { arch, cpus, release, type } from 'node:os';
import { relative, resolve } from 'node:path';
import { TurnkitError } from '../errors.js';
import type { SutConfig } from '../question/question-format.js';
import type { Manifest } from '../run-dir/manifest.js';
import { sha256 } from '../util/sha256.js';
import { sutKind } from '../sut/sut-kinds.js';
import { runBounded } from '../util/process/bounded-process.js';
import { shownPath } from '../util/shown-path.js';

// What a run's manifest says of where it ran and with what, beyond the question's own files: the project's git
// revision, the machine, and the files the SUT's settings name. Read once, when the run starts.

/** The OS, the architecture and the CPU of the machine a run ran on (timings and a local model depend on them). */
export function machineOf(): NonNullable<Manifest['machine']> {
  const cores = cpus();
  return {
    os: `${type()} ${release()}`,
    arch: arch(),
    cpu: cores[0]?.model.trim() || 'unknown',
    cpus: cores.length,
  };
}

// git answers in milliseconds; a hung one (a network file system, a credential prompt) must not hold the run.
const GIT_TIMEOUT_MS = 10_000;

/**
 * The project's git commit and whether its working tree had changes, through the bounded process runner (its own
 * process group, a timeout, bounded output); undefined outside a repository, without git, or when git fails.
 * `env` is what git runs with (the command line's environment, its secret-named variables left out).
 */
export async function gitState(
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<Manifest['git']> {
  const git = async (args: string[]): Promise<string | undefined> => {
    const run = await runBounded({
      argv: ['git', ...args],
      cwd: dir,
      // No pager, no prompt: git reads nothing from a terminal here.
      env: { ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
      stdin: '',
      timeoutMs: GIT_TIMEOUT_MS,
      // Whether the tree is dirty needs only the first line of the status.
      maxStdout: 65_536,
      stdoutOverflow: 'cut',
      maxStderr: 2_000,
      killGraceMs: 0,
      signal,
    });
    return run.spawnError || run.stopped || run.code !== 0 ? undefined : run.stdout;
  };
  const commit = (await git(['rev-parse', '--verify', 'HEAD']))?.trim();
  if (!commit || !/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
  const status = await git(['status', '--porcelain', '--untracked-files=normal']);
  if (status === undefined) return undefined;
  return { commit, dirty: status.trim() !== '' };
}

/**
 * The files a SUT's settings name (a command's script and prompt files, a module's file) that exist, each with its
 * path relative to the project and its sha256, in the order named; words that are not files are left out.
 */
export async function sutFiles(projectDir: string, sut: SutConfig): Promise<{ path: string; sha256: string }[]> {
  const named = sutKind(sut).namedFiles?.(sut);
  if (!named) return [];
  const cwd = resolve(projectDir, named.cwd);
  const files: { path: string; sha256: string }[] = [];
  const seen = new Set<string>();
  for (const word of named.words) {
    const file = resolve(cwd, word);
    if (seen.has(file)) continue;
    seen.add(file);
    const found = await stat(file).catch(() => undefined);
    if (!found?.isFile()) continue;
    const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
      throw new TurnkitError('IO', `${shownPath(file)}: the SUT names this file, which cannot be read (${error.code})`);
    });
    files.push({ path: portable(projectDir, file), sha256: sha256(bytes) });
  }
  return files;
}

/**
 * Checks, resuming, the files the run's SUT named against their recorded sha256. When one changed (or is gone) and
 * some rep has completed, the remaining reps would call another SUT than those did: refused, one line naming the
 * file. When no rep has completed (every one errored: "fix the SUT, then resume"), every rep that will count is the
 * new SUT's, so the resume goes on and the files as they are now are returned, to record. Undefined when nothing
 * changed; a run recorded before turnkit kept these has nothing to check.
 */
export async function resumedSutFiles(
  manifest: Manifest,
  setting: { projectDir: string; completed: number },
  dir: string,
): Promise<Manifest['sutFiles']> {
  let changed = false;
  for (const recorded of manifest.sutFiles ?? []) {
    const file = resolve(setting.projectDir, recorded.path);
    const text = await readFile(file).catch(() => undefined);
    const what = text === undefined ? 'is gone' : sha256(text) !== recorded.sha256 ? 'changed' : undefined;
    if (!what) continue;
    if (setting.completed > 0)
      throw new TurnkitError(
        'BAD_INPUT',
        `${shownPath(resolve(dir, 'manifest.json'))}: the SUT's file ${recorded.path} ${what} since this run started, and ${setting.completed} rep(s) completed with it; start a new run`,
      );
    changed = true;
  }
  if (!changed) return undefined;
  return (manifest.sutFiles ?? []).flatMap((recorded) => {
    const file = resolve(setting.projectDir, recorded.path);
    try {
      return [{ path: recorded.path, sha256: sha256(readFileSync(file)) }];
    } catch {
      return [];
    }
  });
}

// Paths in the manifest are relative to the project, with "/" on every system.
function portable(projectDir: string, path: string): string {
  return relative(projectDir, path).split('\\').join('/');
}

/** Model ids, each once, in the order first seen. */
export function distinctModels(lists: Iterable<readonly string[] | undefined>): string[] {
  const seen = new Set<string>();
  for (const list of lists) for (const id of list ?? []) seen.add(id);
  return [...seen];
}

/** The model ids of several runs (the shards a merge combines): each SUT and judge id once, in the order first seen. */
export function mergedModels(list: readonly Manifest['models'][]): Manifest['models'] {
  const sut = distinctModels(list.map((models) => models?.sut));
  const graders = distinctModels(list.map((models) => Object.keys(models?.judges ?? {})));
  const judges = Object.fromEntries(
    graders.map((grader) => [grader, distinctModels(list.map((models) => models?.judges?.[grader]))]),
  );
  const merged = { ...(sut.length > 0 ? { sut } : {}), ...(graders.length > 0 ? { judges } : {}) };
  return Object.keys(merged).length > 0 ? merged : undefined;
}
