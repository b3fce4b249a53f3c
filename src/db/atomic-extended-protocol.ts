import type { PGlite } from '@electric-sql/pglite';

// Frontend message types (first byte) that open or continue an extended-protocol exchange, which ends at Sync, and
// those of COPY FROM STDIN, which ends at CopyDone or CopyFail.
const OPENS = new Set(['P', 'B', 'D', 'E', 'C', 'H', 'd'].map((type) => type.charCodeAt(0)));
const ENDS = new Set(['S', 'Q', 'X', 'c', 'f'].map((type) => type.charCodeAt(0)));

/**
 * PGlite as the socket server should see it so that one connection's extended-protocol exchange (Parse, Bind,
 * Execute ... Sync) runs with no other connection's message in between.
 *
 * All of pglite-socket's connections share PGlite's one backend session, and it queues each message on its own
 * (pglite issue 1046): two SUTs querying with parameters at once could bind one's unnamed statement to the other's
 * (seen: "portal "" cannot be run", and a rep reading another rep's rows). The server's queue already serves only
 * the last connection while PGlite is inside a transaction; this says "inside a transaction" from a connection's
 * first message of an exchange to its last as well, so that the queue keeps to that connection until it ends.
 */
export function atomicExtendedProtocol(db: PGlite): PGlite {
  let midExchange = false;
  return new Proxy(db, {
    get(target, property) {
      if (property === 'isInTransaction') return () => midExchange || target.isInTransaction();
      if (property === 'execProtocolRawStream') {
        return (message: Uint8Array, options: Parameters<PGlite['execProtocolRawStream']>[1]) => {
          const type = message[0] ?? 0;
          if (OPENS.has(type)) midExchange = true;
          else if (ENDS.has(type)) midExchange = false;
          return target.execProtocolRawStream(message, options);
        };
      }
      // The server rolls back what a connection that went away left open: its exchange is over too.
      if (property === 'exec') {
        return (...args: Parameters<PGlite['exec']>) => {
          midExchange = false;
          return target.exec(...args);
        };
      }
      // PGlite keeps its state in private fields: its methods run on PGlite itself, never on the proxy.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
