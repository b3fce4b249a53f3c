#!/usr/bin/env node
import { run } from './program.js';
import { closeDeadTerminals, quitWhenGone } from './streams-gone.js';
import { oneLineWarnings } from './one-line-warnings.js';
import { processOutput } from './output.js';

// `turnkit materialize X | head` closes the pipe early, and a terminal can go away under `turnkit mark`: neither is
// an error of turnkit's.
process.stdout.on('error', quitWhenGone);
process.stderr.on('error', quitWhenGone);
process.on('exit', closeDeadTerminals);
oneLineWarnings(processOutput);
// Ctrl-C of a command that does not stop on it by itself (run, view and the terminal apps do, with handlers of their
// own): said in one line rather than a silent exit 130.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    if (process.listenerCount(signal) > 1) return;
    processOutput.err(`turnkit: interrupted by ${signal}`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
process.exitCode = await run(process.argv);
