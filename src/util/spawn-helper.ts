import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { BoundedChild, BoundedPipe, ChildSpawner } from './bounded-process.js';
import { SPAWN_HELPER_SOURCE } from './spawn-helper-source.js';

/** A small process that starts programs for this one (see `openSpawnHelper`); close it when done. */
export interface SpawnHelper {
  /** Starts a program through the helper, for `BoundedRun.spawner`. */
  spawner: ChildSpawner;
  /** Ends the helper (what it started and still runs is killed with it) and waits for it to go. */
  close(): Promise<void>;
  /** The helper process's pid while it runs (tests, diagnostics). */
  readonly pid: number | undefined;
}

type Event =
  | { id: number; ev: 'spawn'; pid: number }
  | { id: number; ev: 'stdout' | 'stderr'; data: string }
  | { id: number; ev: 'error'; error: { message: string; code?: string; errno?: number; syscall?: string } }
  | { id: number; ev: 'exit' | 'close'; code: number | null; signal: NodeJS.Signals | null };

/**
 * Starts programs from a helper process rather than from this one. Node forks the calling process to spawn, and a
 * fork copies the page tables of everything the caller has mapped: from a process with the embedded database open
 * (PGlite's WebAssembly memory, hundreds of MB) a spawn took 50 ms of blocked event loop under load and 10 to 20 ms
 * idle, against 1 to 3 ms from a bare Node process; a run spawns its command SUT once per rep. The helper is a bare
 * Node process started at once (plain code, no module of turnkit's), relaying pipes and exits; the
 * bounds (timeout, output, process group kills) stay with `runBounded` here, which kills groups by their pid
 * directly.
 */
export function openSpawnHelper(): SpawnHelper {
  let helper: ChildProcess | undefined;
  let nextId = 1;
  const children = new Map<number, RemoteChild>();
  // Idle, the helper must not keep this process alive; with a program running it must.
  const hold = (): void => {
    if (!helper) return;
    const channel = helper.channel as { ref?(): void; unref?(): void } | null | undefined;
    if (children.size > 0) {
      helper.ref();
      channel?.ref?.();
    } else {
      helper.unref();
      channel?.unref?.();
    }
  };
  const start = (): ChildProcess => {
    // An empty environment: none of this process's NODE_OPTIONS (a loader, a profiler) or secrets reach it.
    const started = spawn(process.execPath, ['-e', SPAWN_HELPER_SOURCE], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      env: {},
    });
    started.on('message', (event: Event) => {
      const child = children.get(event.id);
      if (!child) return;
      if (event.ev === 'close') {
        children.delete(event.id);
        hold();
      }
      child.receive(event);
    });
    // A helper that went away takes no program's word with it: what it had started is killed, and each run ends
    // with that said; the next spawn starts a new helper.
    const gone = (): void => {
      if (helper !== started) return;
      helper = undefined;
      const orphans = [...children.values()];
      children.clear();
      for (const child of orphans) child.lost();
    };
    started.on('exit', gone);
    started.on('error', gone);
    return started;
  };
  const spawner: ChildSpawner = (program, args, options) => {
    helper ??= start();
    const id = nextId++;
    const child = new RemoteChild(() => helper?.send({ op: 'destroy', id }));
    children.set(id, child);
    hold();
    helper.send({
      op: 'spawn',
      id,
      program,
      args,
      cwd: options.cwd,
      env: options.env,
      stdin: options.stdin,
      maxStdout: options.maxStdout,
    });
    return child;
  };
  // Started now, so that its Node boots while the caller does its first work (a run seeds its first rep).
  helper = start();
  hold();
  return {
    spawner,
    get pid() {
      return helper?.pid;
    },
    close: async () => {
      const running = helper;
      helper = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      // Closing the channel is the helper's signal to kill what it started and end.
      running.disconnect();
      const timer = setTimeout(() => running.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
      // The helper killed what it had started: the runs of those programs end now, not at their timeouts.
      const orphans = [...children.values()];
      children.clear();
      for (const child of orphans) child.lost();
    },
  };
}

/** A program the helper started, as runBounded sees it: events replayed from the helper's messages. */
class RemoteChild extends EventEmitter implements BoundedChild {
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stdout: RemotePipe;
  readonly stderr: RemotePipe;
  private closed = false;

  constructor(destroy: () => void) {
    super();
    this.stdout = new RemotePipe(destroy);
    this.stderr = new RemotePipe(destroy);
  }

  receive(event: Event): void {
    switch (event.ev) {
      case 'spawn':
        this.pid = event.pid;
        this.emit('spawn');
        return;
      case 'stdout':
      case 'stderr':
        this[event.ev].push(event.data);
        return;
      case 'error':
        this.emit('error', Object.assign(new Error(event.error.message), event.error));
        return;
      case 'exit':
        this.exitCode = event.code;
        this.signalCode = event.signal;
        this.emit('exit', event.code, event.signal);
        return;
      case 'close':
        this.closed = true;
        this.emit('close', event.code, event.signal);
    }
  }

  /** The helper went away before this program closed: its group is killed, and the run ends as one never started. */
  lost(): void {
    if (this.closed) return;
    if (this.pid !== undefined) {
      try {
        process.kill(-this.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    this.emit('error', Object.assign(new Error('the spawn helper stopped'), { code: 'EHELPER' }));
    this.closed = true;
    this.emit('close', null, null);
  }
}

/** stdout or stderr of a helper's program: UTF-8 chunks as the helper decoded them. */
class RemotePipe extends EventEmitter implements BoundedPipe {
  private destroyed = false;

  constructor(private readonly destroyAll: () => void) {
    super();
  }

  setEncoding(): this {
    // The helper decodes UTF-8 already, a character split between chunks included.
    return this;
  }

  push(data: string): void {
    if (!this.destroyed) this.emit('data', data);
  }

  destroy(): this {
    if (!this.destroyed) {
      this.destroyed = true;
      this.destroyAll();
    }
    return this;
  }
}
