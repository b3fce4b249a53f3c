#!/usr/bin/env node
import { run } from './program.js';
import { closeDeadTerminals, quitWhenGone } from './streams-gone.js';

// `turnkit materialize X | head` closes the pipe early, and a terminal can go away under `turnkit mark`: neither is
// an error of turnkit's.
process.stdout.on('error', quitWhenGone);
process.stderr.on('error', quitWhenGone);
process.on('exit', closeDeadTerminals);
process.exitCode = await run(process.argv);
