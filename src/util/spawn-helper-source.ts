/**
 * The code of the spawn helper (spawn-helper.ts): a small Node process that starts programs for its parent and
 * relays their pipes and exits over its IPC channel. Plain CommonJS source run with `node -e`, so that it runs the
 * same from the sources (tests) and from dist/ and loads nothing but Node itself: the smaller it stays, the cheaper
 * each fork it makes.
 *
 * Messages in: `{ op: 'spawn', id, program, args, cwd, env, stdin, maxStdout }`, `{ op: 'destroy', id }` (stop
 * reading its pipes). Out, per id and in order: `spawn` (with the pid) or `error`, then `stdout`/`stderr` chunks of
 * UTF-8 text, `exit`, `close`. stdout is relayed up to one byte past `maxStdout`: enough for the parent to cut or
 * stop it, and a program that floods stdout does not flood the channel. When the parent goes away (its channel
 * closes), every process group still running is killed and the helper exits.
 */
export const SPAWN_HELPER_SOURCE = String.raw`
const { spawn } = require('node:child_process');
const running = new Map();
const send = (message) => { if (process.connected) process.send(message); };
const errorOf = (error) => ({ message: String(error && error.message), code: error && error.code, errno: error && error.errno, syscall: error && error.syscall, path: error && error.path });
process.on('message', (message) => {
  const id = message.id;
  if (message.op === 'destroy') {
    const child = running.get(id);
    if (child) { child.stdout.destroy(); child.stderr.destroy(); }
    return;
  }
  let child;
  try {
    child = spawn(message.program, message.args, { cwd: message.cwd, env: message.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  } catch (error) {
    send({ id, ev: 'error', error: errorOf(error) });
    send({ id, ev: 'close', code: null, signal: null });
    return;
  }
  running.set(id, child);
  let relayed = 0;
  child.on('spawn', () => send({ id, ev: 'spawn', pid: child.pid }));
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (data) => {
    if (relayed > message.maxStdout) return;
    relayed += Buffer.byteLength(data);
    send({ id, ev: 'stdout', data });
  });
  child.stderr.on('data', (data) => send({ id, ev: 'stderr', data }));
  child.stdin.on('error', () => {});
  child.stdin.end(message.stdin);
  child.on('error', (error) => send({ id, ev: 'error', error: errorOf(error) }));
  child.on('exit', (code, signal) => send({ id, ev: 'exit', code, signal }));
  child.on('close', (code, signal) => { running.delete(id); send({ id, ev: 'close', code, signal }); });
});
// Nothing it started outlives the parent; with their pipes closed the helper has nothing left to wait for, and ends.
process.on('disconnect', () => {
  for (const child of running.values()) {
    try { process.kill(-child.pid, 'SIGKILL'); } catch {}
    child.stdout.destroy();
    child.stderr.destroy();
  }
});
`;
