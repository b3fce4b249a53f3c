import { Duplex } from 'node:stream';
import type { PGLiteSocketHandler, PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * A connection to the embedded server from inside the process that runs it, for turnkit's own pool: pg speaks the
 * same wire protocol as through the socket (the same bytes, parsed the same way), but to a handler of the server's
 * own, in memory, instead of over TCP to the password gate, which pipes it on over a Unix socket to the server, and
 * back. Every statement turnkit makes (about twenty a rep) crossed four sockets each way.
 *
 * The handler joins the server's one query queue (the same one its socket connections share), so that turnkit's
 * statements and its SUTs' still take turns as the server orders them, and a transaction of turnkit's still holds
 * the others off. Reaches into pglite-socket 0.2.17 (pinned exactly): the queue is a private field of the server.
 */
export async function inProcessConnector(server: PGLiteSocketServer): Promise<() => Duplex> {
  const { PGLiteSocketHandler } = await import('@electric-sql/pglite-socket');
  const queryQueue = (server as unknown as { queryQueue?: unknown }).queryQueue;
  if (!queryQueue) throw new Error('pglite-socket has no query queue where turnkit expects it (a new version?)');
  type HandlerOptions = ConstructorParameters<typeof PGLiteSocketHandler>[0];
  // pg asks for its stream synchronously, as it constructs a client.
  return () => connectHandler(new PGLiteSocketHandler({ queryQueue, closeOnDetach: true } as HandlerOptions));
}

function connectHandler(handler: PGLiteSocketHandler): Duplex {
  const [client, served] = duplexPair();
  // The handler reads what a TCP socket has; these are what it asks of one.
  Object.assign(served, { remoteAddress: 'turnkit', remotePort: 0, setNoDelay: () => served });
  // Its attaching is synchronous work behind a promise; it fails only for a socket attached twice.
  handler.attach(served as unknown as Parameters<typeof handler.attach>[0]).catch((error: unknown) => {
    client.destroy(error as Error);
  });
  // What pg asks of a socket beyond a duplex stream: connect (here, already), keepalive and ref counting.
  return Object.assign(client, {
    connect: () => {
      process.nextTick(() => client.emit('connect'));
      return client;
    },
    setNoDelay: () => client,
    setKeepAlive: () => client,
    ref: () => client,
    unref: () => client,
  });
}

/** Two duplex streams, each one's writes the other's reads (Node 20 has no stream.duplexPair). */
function duplexPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  const end = (other: () => Duplex): Duplex =>
    new Duplex({
      // One side's end closes the other, as a TCP socket's does: the handler rolls back what a client left open
      // only once it sees the close.
      allowHalfOpen: false,
      read() {},
      write(chunk: Buffer, _encoding, done) {
        other().push(chunk);
        done();
      },
      final(done) {
        other().push(null);
        done();
      },
      destroy(error, done) {
        // A side that goes away ends the other, as a closed socket does.
        const peer = other();
        if (!peer.destroyed) peer.destroy();
        done(error);
      },
    });
  ends.push(
    end(() => ends[1]!),
    end(() => ends[0]!),
  );
  return [ends[0]!, ends[1]!];
}
