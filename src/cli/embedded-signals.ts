/**
 * Closes an owned embedded server (PGlite) cleanly when the process is interrupted, then exits with the signal's
 * conventional code. The command line installs it (see db/owner-hooks.ts); the library never does.
 */
export function closeOnSignals(close: () => Promise<void>): () => void {
  const handlers = new Map<NodeJS.Signals, () => void>();
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    const handler = (): void => {
      void close().finally(() => process.exit(code));
    };
    handlers.set(signal, handler);
    process.once(signal, handler);
  }
  return () => handlers.forEach((handler, signal) => process.off(signal, handler));
}
