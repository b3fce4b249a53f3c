import { afterEach, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { openEmbedded } from '../../src/db/embedded.js';
import { md5Answer } from '../../src/db/password-gate.js';

// The frontend side of the Postgres protocol, by hand, so that a test can pause in the middle of an exchange.
function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}
const text = (value: string): Buffer => Buffer.from(`${value}\0`);
const int16 = (value: number): Buffer => Buffer.from([value >> 8, value & 0xff]);
const PARSE = (sql: string): Buffer => message('P', text(''), text(sql), int16(0));
const BIND = message('B', text(''), text(''), int16(0), int16(0), int16(0));
const EXECUTE = message('E', text(''), Buffer.alloc(4));
const SYNC = message('S');

/** A raw connection: what the server sent so far, and a wait for its next ReadyForQuery. */
async function rawClient(
  port: number,
  password: string,
): Promise<{ socket: Socket; received: () => string; ready: () => Promise<void> }> {
  const socket = connect({ host: '127.0.0.1', port });
  let bytes = Buffer.alloc(0);
  let readyCount = 0;
  const waiters: (() => void)[] = [];
  // The server's md5 challenge (R, length 12, code 5, four bytes of salt) comes first, before any message counted.
  let challenged: (salt: Buffer) => void = () => {};
  const challenge = new Promise<Buffer>((resolve) => (challenged = resolve));
  let answered = false;
  socket.on('data', (chunk: Buffer) => {
    if (!answered) {
      answered = true;
      expect(chunk.subarray(0, 9)).toEqual(Buffer.from([0x52, 0, 0, 0, 12, 0, 0, 0, 5]));
      challenged(chunk.subarray(9, 13));
      return;
    }
    bytes = Buffer.concat([bytes, chunk]);
    // Counts ReadyForQuery messages ('Z', length 5) as they complete.
    let count = 0;
    for (let at = 0; at + 5 <= bytes.length; at += 1 + bytes.readInt32BE(at + 1)) if (bytes[at] === 0x5a) count++;
    for (; readyCount < count; readyCount++) waiters.shift()?.();
  });
  const ready = (): Promise<void> => new Promise((resolve) => waiters.push(resolve));
  await new Promise((resolve) => socket.once('connect', resolve));
  const startup = Buffer.concat([
    Buffer.from([0, 3, 0, 0]),
    text('user'),
    text('postgres'),
    text('database'),
    text('postgres'),
    Buffer.from([0]),
  ]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(startup.length + 4);
  const first = ready();
  // The startup message is the one without a type byte: skip it when counting.
  bytes = Buffer.alloc(0);
  socket.write(Buffer.concat([length, startup]));
  socket.write(message('p', text(md5Answer(password, 'postgres', await challenge))));
  await first;
  return { socket, received: () => bytes.toString('latin1'), ready };
}

describe('the embedded server with two connections in the extended protocol at once', () => {
  let dir: string;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("runs one connection's Parse ... Sync with no other connection's message in between", async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-protocol-'));
    const dataDir = join(dir, 'pgdata');
    await cp(inject('pgdataTemplate'), dataDir, { recursive: true });
    const server = await openEmbedded({ dataDir, port: 0, handleSignals: false });
    const sockets: Socket[] = [];
    try {
      const password = new URL(server.url).password;
      const a = await rawClient(server.port, password);
      const b = await rawClient(server.port, password);
      sockets.push(a.socket, b.socket);
      const afterA = a.ready();
      const afterB = b.ready();
      // A parses its unnamed statement and pauses; B runs a whole exchange of its own meanwhile; then A binds.
      a.socket.write(PARSE(`SELECT 'answer-of-a'::text`));
      await new Promise((resolve) => setTimeout(resolve, 300));
      b.socket.write(Buffer.concat([PARSE(`SELECT 'answer-of-b'::text`), BIND, EXECUTE, SYNC]));
      await new Promise((resolve) => setTimeout(resolve, 300));
      a.socket.write(Buffer.concat([BIND, EXECUTE, SYNC]));
      await Promise.all([afterA, afterB]);
      expect(a.received()).toContain('answer-of-a');
      expect(a.received()).not.toContain('answer-of-b');
      expect(b.received()).toContain('answer-of-b');
      expect(b.received()).not.toContain('answer-of-a');
    } finally {
      // The owner closes once no other connection is open.
      for (const socket of sockets) socket.destroy();
      await server.close();
    }
  });
});
