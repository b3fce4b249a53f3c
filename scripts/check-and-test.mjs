// `npm test` after the build: the type-check beside vitest rather than before it. The suite's files wait on
// databases, child processes and browsers a good share of their time, and tsc (about 12 s of CPU) fills those waits
// instead of delaying the first test. Its output is held and printed after vitest's, so the two do not interleave.
// Exit code: vitest's if it failed, else the type-check's. Arguments go to vitest (`npm test -- --project unit`).
// Run by npm, whose PATH has node_modules/.bin first.
import { spawn } from 'node:child_process';

let checked = '';
// The Node program, then the page script's (browser code, checked with the DOM's types: tsconfig.client.json).
const typecheck = (project, flags) =>
  new Promise((resolve) => {
    const check = spawn('tsc', ['-p', project, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
    check.stdout.on('data', (chunk) => (checked += chunk));
    check.stderr.on('data', (chunk) => (checked += chunk));
    check.on('close', (code) => resolve(code ?? 1)).on('error', () => resolve(1));
  });
const checkCode = typecheck('tsconfig.json', ['--noEmit']).then(async (code) =>
  code !== 0 ? code : typecheck('tsconfig.client.json', []),
);

const tests = spawn('vitest', ['run', ...process.argv.slice(2)], { stdio: 'inherit' });
const testCode = await new Promise((resolve) =>
  tests.on('close', (code) => resolve(code ?? 1)).on('error', () => resolve(1)),
);
const typeCode = await checkCode;
if (typeCode !== 0) process.stderr.write(`\ntype-check (npm run typecheck) failed:\n${checked}`);
process.exitCode = testCode !== 0 ? testCode : typeCode;
