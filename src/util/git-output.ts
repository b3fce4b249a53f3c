import { execFileSync } from 'node:child_process';

/** What `git ARGS` prints in a folder (its stderr ignored); throws where git is missing or the command fails. */
export function gitOutput(dir: string, args: readonly string[]): string {
  return execFileSync('git', [...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}
