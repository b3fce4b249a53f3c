import type { Command } from 'commander';
import { userInfo } from 'node:os';
import { basename, dirname, relative, resolve } from 'node:path';
import type { HeldoutLooks } from '../report/heldout-ledger.js';
import { readManifest } from '../run-dir/run-state.js';
import { commonOptions } from './global-options.js';
import type { Output } from './output.js';

/**
 * Who is at the keyboard, for the held-out ledger: git's user.name in the project, else the OS user. Read here, at the
 * edge; the library is given the name.
 */
async function whoAmI(projectDir: string): Promise<string> {
  const { gitOutput } = await import('../util/git-output.js');
  try {
    const name = gitOutput(projectDir, ['config', 'user.name']).trim();
    if (name) return name;
  } catch {
    // No git, or no user.name: the OS user below.
  }
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}

/**
 * A run directory's project folder: the one holding runs/QUESTION/STAMP. A run kept elsewhere (copied, downloaded
 * from CI) belongs to the project the command runs in: the ledger is never written outside a project.
 */
function projectOfRun(runDir: string, cwd: string = process.cwd()): string {
  const runs = resolve(runDir, '..', '..');
  return basename(runs) === 'runs' ? dirname(runs) : cwd;
}

/** The held-out fixtures of a run's manifest, by name. */
export function heldoutFixtureNames(fixtures: readonly { name: string; tag?: string | undefined }[]): string[] {
  return fixtures.filter((fixture) => fixture.tag === 'heldout').map((fixture) => fixture.name);
}

/**
 * Records one ledger line for a command on run directories when any of their fixtures is tagged heldout, and answers
 * how often the set has been looked at (undefined when nothing held out was touched). A folder that is not a run is
 * left for the command itself to refuse.
 */
export async function recordRunLook(
  command: string,
  runDirs: readonly string[],
  now: Date = new Date(),
): Promise<HeldoutLooks | undefined> {
  const fixtures: string[] = [];
  const targets: string[] = [];
  let projectDir: string | undefined;
  for (const dir of runDirs) {
    const manifest = await readManifest(dir).catch(() => undefined);
    if (!manifest) continue;
    const names = heldoutFixtureNames(manifest.fixtures);
    if (names.length === 0) continue;
    projectDir ??= projectOfRun(dir);
    fixtures.push(...names);
    targets.push(relative(projectDir, resolve(dir)) || '.');
  }
  if (!projectDir) return undefined;
  // The ledger's code is loaded only when a held-out fixture was touched: most runs hold none out.
  const { countHeldoutLooks, readHeldoutLedger, recordHeldoutUse } = await import('../report/heldout-ledger.js');
  await recordHeldoutUse(projectDir, {
    at: now.toISOString(),
    who: await whoAmI(projectDir),
    command,
    use: 'look',
    fixtures,
    targets,
  });
  return countHeldoutLooks(await readHeldoutLedger(projectDir));
}

/**
 * Before `construct` or `edit` from a fixture some question holds out: warns that it becomes a debugging example (a
 * held-out fixture that is studied while fixing the SUT no longer measures it fairly) and records it in the ledger.
 */
async function recordDebugExample(
  command: string,
  fixture: string,
  paths: { baseDir: string; questions: string },
  warn: (message: string) => void,
  now: Date = new Date(),
): Promise<void> {
  const { questionsHoldingOut } = await import('../report/heldout-source.js');
  const file = resolve(fixture);
  const questions = await questionsHoldingOut(file, paths.baseDir, paths.questions);
  if (questions.length === 0) return;
  const { recordHeldoutUse } = await import('../report/heldout-ledger.js');
  const name = basename(file).replace(/\.json$/i, '');
  warn(
    `${fixture} is held out by ${questions.join(', ')}: ${command} from it makes it a debugging example (recorded in heldout-ledger.jsonl); its held-out results no longer measure the SUT fairly`,
  );
  await recordHeldoutUse(paths.baseDir, {
    at: now.toISOString(),
    who: await whoAmI(paths.baseDir),
    command,
    use: 'debug-example',
    fixtures: [name],
    targets: [relative(paths.baseDir, file)],
  });
}

/** `construct`/`edit`'s check of their source fixture against the project's questions (see `recordDebugExample`). */
export async function warnHeldoutSource(
  commandName: string,
  fixture: string,
  command: Command,
  output: Output,
): Promise<void> {
  const { loadConfig } = await import('../config/load.js');
  const { projectPaths } = await import('../project/open-project.js');
  const config = await loadConfig({ configPath: commonOptions(command).configPath });
  await recordDebugExample(commandName, fixture, projectPaths(config), (message) => output.err(`warning: ${message}`));
}
