import type { Output } from './output.js';

/**
 * Prints a warning Node or a package emits (node-postgres's ten-line SSL notice, an experimental feature) as one
 * line `warning: ...` instead of Node's block with its stack hint, so that turnkit's own line stays the one read.
 * Node's own printer is the process's first `warning` listener; it is replaced, not joined.
 */
export function oneLineWarnings(output: Output): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error) => {
    const first = (warning.message ?? String(warning)).split('\n')[0]!.trim();
    // The first sentence says it; the rest is advice on a package's options.
    const sentence = /^(.*?[.!?])(\s|$)/.exec(first)?.[1] ?? first;
    output.err(`warning: ${sentence}`);
  });
}
