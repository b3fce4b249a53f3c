import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { systemProgram } from './system-programs.js';

/**
 * This test file's own tmux server (`tmux -L`): sessions on the default server die with whatever else uses it (a
 * person's tmux, another suite), and a test must not depend on them. Killed by `killTmuxServer` after the file.
 */
export const TMUX_SOCKET = `turnkit-test-${process.pid}-${randomBytes(4).toString('hex')}`;

/** Runs a tmux command on this file's own server and returns its stdout; throws when tmux fails. */
export function tmux(args: readonly string[]): string {
  return execFileSync('tmux', ['-L', TMUX_SOCKET, ...args], { encoding: 'utf8' });
}

/** Runs a tmux command on this file's own server, ignoring failure (for clean-up). */
export function tmuxQuiet(args: readonly string[]): void {
  spawnSync('tmux', ['-L', TMUX_SOCKET, ...args]);
}

/** Stops this file's tmux server and every session on it. */
export function killTmuxServer(): void {
  tmuxQuiet(['kill-server']);
}

const tmuxProgram = systemProgram('tmux', spawnSync('tmux', ['-V']).status === 0);

/** Whether tmux is here to drive the terminal apps with (when not, a notice says what to install). */
export const hasTmux = tmuxProgram.found;

/** CI (TURNKIT_REQUIRE_TMUX, or CI set) requires tmux: a machine without it fails instead of quietly not driving the apps. */
export const requireTmux = tmuxProgram.required;

/**
 * Polls a tmux pane until it shows the text (and not `without`, when given). The deadline is generous because it only bounds a hang: on CI the
 * binary starts while other test files load both databases on two cores.
 */
export async function waitForPane(
  session: string,
  text: string,
  deadlineMs = 90_000,
  options: { without?: string } = {},
): Promise<string> {
  let pane = '';
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    pane =
      spawnSync('tmux', ['-L', TMUX_SOCKET, 'capture-pane', '-p', '-t', session], { encoding: 'utf8' }).stdout ?? '';
    if (pane.includes(text) && (options.without === undefined || !pane.includes(options.without))) return pane;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(
    `the pane never showed ${JSON.stringify(text)}${options.without ? ` without ${JSON.stringify(options.without)}` : ''}; it shows:\n${pane}`,
  );
}

/**
 * Starts a command in a detached tmux session of 80x24, with CI=true in its environment whatever the test runner's:
 * CI runners set it, and ink then wrote nothing until exit (a blank pane on CI only). The apps must draw anyway.
 */
export function startInTmux(session: string, cwd: string, command: string): void {
  const args = ['-L', TMUX_SOCKET, 'new-session', '-d', '-s', session, '-x', '80', '-y', '24', '-c', cwd];
  // When the test before killed the server's last session, that server exits; a new-session that reaches it in
  // those moments fails with "server exited unexpectedly" (seen under load). A second try starts a new server.
  for (let attempt = 1; ; attempt++) {
    const started = spawnSync('tmux', [...args, '-e', 'CI=true', command], { encoding: 'utf8' });
    if (started.status === 0) return;
    const gone = /server exited unexpectedly|no server running|lost server/.test(started.stderr ?? '');
    if (!gone || attempt === 10) throw new Error(`tmux new-session failed: ${started.stderr?.trim()}`);
    spawnSync('sleep', ['0.2']);
  }
}
