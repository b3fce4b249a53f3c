/** What the process does while it owns an embedded server: given the server's clean interrupt, returns an undo. */
export type EmbeddedOwnerHook = (interrupt: () => Promise<void>) => () => void;

let ownerHook: EmbeddedOwnerHook | undefined;

/**
 * Set by the command line, which owns the process's signals: it closes an owned embedded server cleanly on Ctrl-C.
 * Without a hook (a library caller) no signal handler is installed; the caller closes its database.
 */
export function setEmbeddedOwnerHook(hook: EmbeddedOwnerHook | undefined): void {
  ownerHook = hook;
}

/** The hook the command line set, if any. */
export function embeddedOwnerHook(): EmbeddedOwnerHook | undefined {
  return ownerHook;
}
