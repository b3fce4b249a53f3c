import { run } from '../../src/cli/program.js';
import type { CliResult } from './cli.js';

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs the CLI's `run(argv, output)` in this process, as `bin.js` does, and collects what it printed: the same exit
 * code and lines as the binary without a process's start-up (seconds each on a loaded machine). For what only a
 * process shows (signals, terminals, the binary's own mapping of the exit code) use `runCli`. Messages show paths
 * relative to the working directory, so the call moves into `cwd` for its duration: calls take turns, and the test
 * file must run in a forked worker (vitest's default pool), where `process.chdir` is allowed.
 */
export function runInProcess(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CliResult> {
  const next = queue.then(() => runNow(args, options));
  queue = next.catch(() => {});
  return next;
}

async function runNow(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const before = process.cwd();
  const saved = Object.entries(options.env ?? {}).map(([name, value]) => {
    const old = process.env[name];
    process.env[name] = value;
    return [name, old] as const;
  });
  process.chdir(options.cwd);
  try {
    const code = await run(['node', 'turnkit', ...args], {
      out: (line) => (stdout += `${line}\n`),
      err: (line) => (stderr += `${line}\n`),
    });
    return { code, stdout, stderr };
  } finally {
    process.chdir(before);
    for (const [name, old] of saved) {
      if (old === undefined) delete process.env[name];
      else process.env[name] = old;
    }
  }
}
