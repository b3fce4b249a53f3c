import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * The embedded server's front door: a TCP listener that asks every client for the server's password (Postgres's md5
 * challenge, which pg, psql and psycopg all answer) before it joins the client to PGlite's socket server.
 *
 * pglite-socket has no authentication of its own: it hands the startup message to PGlite, which answers
 * AuthenticationOk whatever the user and password (read in node_modules/@electric-sql/pglite-socket, 0.2.x: no hook
 * sees the startup message). So PGlite's server listens on a Unix socket in an owner-only folder, which only this
 * user can reach, and this gate is the only way in over TCP. Once the password checks out the gate forwards the
 * client's startup message to PGlite and pipes both ways: the client sees PGlite's AuthenticationOk and carries on.
 */

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
/** The only user the embedded database has (PGlite's superuser). */
const EMBEDDED_USER = 'postgres';
/** Longer than any startup message a client sends; a longer one is not a Postgres client. */
const MAX_STARTUP = 10_000;
/** A client that has not finished the handshake in this time is dropped, so that no half-open socket lingers. */
const HANDSHAKE_MS = 10_000;

/** Where the gate listens and what it lets through to. */
export interface PasswordGateOptions {
  host: string;
  port: number;
  password: string;
  /** The Unix socket PGlite's server listens on. */
  innerPath: string;
}

/** Starts the gate; resolves with its listening server (its port from `address()`). */
export function startPasswordGate(options: PasswordGateOptions): Promise<Server> {
  const server = createServer((socket) => handshake(socket, options));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      // A client's socket error is its own: it never stops the gate.
      server.on('error', () => {});
      resolve(server);
    });
  });
}

/** The md5 answer Postgres expects: "md5" + md5(md5(password + user) + salt), in hex. */
export function md5Answer(password: string, user: string, salt: Buffer): string {
  const inner = createHash('md5')
    .update(password + user)
    .digest('hex');
  return `md5${createHash('md5')
    .update(Buffer.concat([Buffer.from(inner), salt]))
    .digest('hex')}`;
}

function handshake(client: Socket, options: PasswordGateOptions): void {
  let buffered = Buffer.alloc(0);
  let startup: Buffer | undefined;
  let user = '';
  const salt = randomBytes(4);
  const timer = setTimeout(() => client.destroy(), HANDSHAKE_MS);
  client.on('error', () => client.destroy());
  client.on('close', () => clearTimeout(timer));
  const refuse = (message: string, code = '28P01'): void => {
    clearTimeout(timer);
    client.removeListener('data', onData);
    client.end(errorResponse(code, message));
  };
  const onData = (chunk: Buffer): void => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      if (!startup) {
        if (buffered.length < 8) return;
        const length = buffered.readInt32BE(0);
        if (length < 8 || length > MAX_STARTUP) {
          client.destroy();
          return;
        }
        if (buffered.length < length) return;
        const code = buffered.readInt32BE(4);
        const message = buffered.subarray(0, length);
        buffered = buffered.subarray(length);
        // No TLS or GSS on a loopback socket: "N" asks the client to go on in the clear, as a server without them does.
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          client.write('N');
          continue;
        }
        // A cancel request carries no password: PGlite runs one query at a time and cannot cancel it anyway.
        if (code === CANCEL_REQUEST) {
          client.destroy();
          return;
        }
        if (code !== PROTOCOL_3) {
          refuse('unsupported frontend protocol', '0A000');
          return;
        }
        startup = Buffer.from(message);
        user = startupParameters(message).get('user') ?? '';
        client.write(md5Request(salt));
        continue;
      }
      if (buffered.length < 5) return;
      const length = buffered.readInt32BE(1);
      if (length < 4 || length > MAX_STARTUP) {
        client.destroy();
        return;
      }
      if (buffered.length < 1 + length) return;
      const type = String.fromCharCode(buffered[0]!);
      const body = buffered.subarray(5, 1 + length);
      const rest = buffered.subarray(1 + length);
      const failed = `password authentication failed for user "${user.replace(/[^\x20-\x7e]/g, '?').slice(0, 63)}"`;
      if (type !== 'p') {
        refuse(failed);
        return;
      }
      const answer = Buffer.from(body.toString('utf8').replace(/\0$/, ''));
      const expected = Buffer.from(md5Answer(options.password, user, salt));
      const right = answer.length === expected.length && timingSafeEqual(answer, expected);
      if (!right || user !== EMBEDDED_USER) {
        refuse(failed);
        return;
      }
      clearTimeout(timer);
      client.removeListener('data', onData);
      joinPglite(client, startup, rest, options.innerPath);
      return;
    }
  };
  client.on('data', onData);
}

/** Hands an authenticated client to PGlite's server: its startup message first, then whatever it sends. */
function joinPglite(client: Socket, startup: Buffer, early: Buffer, innerPath: string): void {
  client.pause();
  const inner = connect(innerPath);
  inner.setNoDelay?.(true);
  client.setNoDelay(true);
  inner.on('error', () => client.destroy());
  client.on('error', () => inner.destroy());
  inner.once('connect', () => {
    inner.write(startup);
    if (early.length > 0) inner.write(early);
    client.pipe(inner);
    inner.pipe(client);
    client.resume();
  });
  client.on('close', () => inner.destroy());
  inner.on('close', () => client.destroy());
}

function startupParameters(message: Buffer): Map<string, string> {
  const parts = message.subarray(8).toString('utf8').split('\0');
  const parameters = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length; i += 2) if (parts[i]) parameters.set(parts[i]!, parts[i + 1]!);
  return parameters;
}

function md5Request(salt: Buffer): Buffer {
  const message = Buffer.alloc(13);
  message.write('R', 0);
  message.writeInt32BE(12, 1);
  message.writeInt32BE(5, 5);
  salt.copy(message, 9);
  return message;
}

function errorResponse(code: string, text: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${text}\0\0`, 'utf8');
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([head, fields]);
}
