#!/usr/bin/env node
import { setEmbeddedOwnerHook } from '../db/owner-hooks.js';
import { closeOnSignals } from './embedded-signals.js';
import { run } from './program.js';
import { closeDeadTerminals, quitWhenGone } from './streams-gone.js';
// `turnkit materialize X | head` closes the pipe early, and a terminal can go away under `turnkit mark`: neither is
// an error of turnkit's.
process.stdout.on('error', quitWhenGone);
process.stderr.on('error', quitWhenGone);
process.on('exit', closeDeadTerminals);
// This process's signals are the command line's: an embedded server it owns closes cleanly on Ctrl-C.
setEmbeddedOwnerHook(closeOnSignals);
process.exitCode = await run(process.argv);
