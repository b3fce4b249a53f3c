import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { openDb } from '../../src/db/connect.js';
import { BIN } from '../helpers/cli.js';
import { PRISMA_DATA, PRISMA_SCHEMA } from '../helpers/prisma-style-schema.js';
import { adminQuery, BACKENDS } from '../helpers/test-db.js';
import { hasTmux, killTmuxServer, requireTmux, startInTmux, TMUX_SOCKET, tmux, tmuxQuiet } from '../helpers/tmux.js';
import { copyEmbedded } from '../helpers/embedded-copy.js';

const EMPTY = { game: { root: { table: 'rooms', key: 'id' }, turns: { table: 't', order: 'o', input: ['i'] } } };

// The pane with its scrollback, wrapped lines joined: init's candidate lists scroll and its reasons are long.
function pane(session: string): string {
  return (
    spawnSync('tmux', ['-L', TMUX_SOCKET, 'capture-pane', '-p', '-J', '-S', '-', '-t', session], { encoding: 'utf8' })
      .stdout ?? ''
  );
}

// Waits until the text has appeared `times` times in the pane (a question asked again shows its prompt twice).
async function waitFor(session: string, text: string, times = 1): Promise<string> {
  const until = Date.now() + 90_000;
  let shown = '';
  while (Date.now() < until) {
    shown = pane(session);
    if (shown.split(text).length - 1 >= times) return shown;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the pane never showed ${JSON.stringify(text)} ${times} time(s); it shows:\n${shown}`);
}

describe.each(BACKENDS)('turnkit init at a terminal on a Prisma-style schema on %s', (backend) => {
  let project: string;
  let databaseUrl = '';
  let dropDatabase = async (): Promise<void> => {};

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-init-terminal-'));
    if (backend === 'postgres') {
      const name = `turnkit_init_tty_${process.pid}`;
      await adminQuery(process.env.TEST_DATABASE_URL!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await adminQuery(process.env.TEST_DATABASE_URL!, `CREATE DATABASE ${name}`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      dropDatabase = async () => {
        await adminQuery(process.env.TEST_DATABASE_URL!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      };
    } else {
      await copyEmbedded(project, 'empty');
    }
    // The game's schema and rows, written before init runs (and closed, so init's process owns the database).
    const config = {
      ...configSchema.parse({ ...EMPTY, database: { url: databaseUrl || undefined } }),
      baseDir: project,
      file: undefined,
    };
    const db = await openDb(config);
    try {
      await db.pool.query(PRISMA_SCHEMA);
      await db.pool.query(PRISMA_DATA);
    } finally {
      await db.close();
    }
  }, 120_000);
  afterAll(async () => {
    killTmuxServer();
    await dropDatabase();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('has tmux to drive init with (required on CI)', () => {
    expect(hasTmux || !requireTmux).toBe(true);
  });

  it.runIf(hasTmux)(
    'offers numbered candidates, re-asks a wrong answer with the reason, and writes what was answered',
    async () => {
      const session = `turnkit-init-${backend}-${process.pid}`;
      const command = `DATABASE_URL='${databaseUrl}' ${process.execPath} ${BIN} init; echo "exit=$?"; sleep 30`;
      startInTmux(session, project, command);
      const type = (text: string): void => {
        if (text) tmux(['send-keys', '-t', session, '-l', text]);
        tmux(['send-keys', '-t', session, 'Enter']);
      };
      try {
        const first = await waitFor(session, 'campaign table (one row = one campaign) [rooms]: ');
        expect(first).toContain('  1) rooms  3 tables below it (GameSession, Player, NarrativeEntry)');
        expect(first).not.toContain('_prisma_migrations');
        type('');
        const turns = await waitFor(session, 'turns table (below rooms) [NarrativeEntry]: ');
        // First by its shape (a role column holding the player's and the GM's rows); the reason goes on past the line.
        expect(turns).toContain('  1) NarrativeEntry  2 foreign keys below rooms (via GameSession)');
        // votes holds roomId, but no foreign key leads from it to the room: the question is asked again.
        type('votes');
        await waitFor(
          session,
          '  votes: no foreign-key path leads from it to rooms (below rooms: GameSession, Player, NarrativeEntry); answer again',
        );
        await waitFor(session, 'turns table (below rooms) [NarrativeEntry]: ', 2);
        type('1');
        await waitFor(session, 'order column of NarrativeEntry (integer or timestamp) [createdAt]: ');
        type('');
        await waitFor(session, '[turn]: ');
        type('');
        await waitFor(session, "which rows are the player's input: COLUMN=VALUE,... (or none) [type=ACTION]: ");
        type('type=PLAYER');
        await waitFor(
          session,
          '  PLAYER: not a value of NarrativeEntry.type (it has ACTION, DICE, NARRATION, SYSTEM); answer again',
        );
        type('type=ACTION');
        await waitFor(session, 'player input columns of NarrativeEntry (comma-separated) [content]: ');
        type('');
        await waitFor(
          session,
          'shared tables, captured when referenced, never owned (comma-separated, or none) [User]: ',
        );
        type('');
        const done = await waitFor(session, 'exit=0');
        expect(done).toContain('  turns NarrativeEntry: 2 foreign keys below rooms (via GameSession)');
        expect(done).toContain('  references votes.roomId -> rooms: named like the key of rooms, with no foreign key');
      } finally {
        tmuxQuiet(['kill-session', '-t', session]);
      }
      const config = await readFile(join(project, 'turnkit.config.ts'), 'utf8');
      expect(config).toContain("      table: 'NarrativeEntry',\n");
      expect(config).toContain("      turn: 'turn',\n");
      expect(config).toContain("      role: { column: 'type', input: ['ACTION'], output: 'NARRATION' },\n");
      expect(config).toContain("    references: { 'votes.roomId': 'rooms' },\n");
    },
    300_000,
  );

  it.runIf(hasTmux)(
    'stops at Ctrl-D with a message, writing nothing',
    async () => {
      const session = `turnkit-init-eof-${backend}-${process.pid}`;
      const folder = join(project, 'eof');
      const command = `mkdir -p ${folder} && cp -r ${join(project, '.turnkit')} ${folder}/ 2>/dev/null; cd ${folder} && DATABASE_URL='${databaseUrl}' ${process.execPath} ${BIN} init; echo "exit=$?"; sleep 30`;
      startInTmux(session, project, command);
      try {
        await waitFor(session, 'campaign table (one row = one campaign) [rooms]: ');
        tmux(['send-keys', '-t', session, 'C-d']);
        const done = await waitFor(session, 'exit=2');
        expect(done).toContain(
          'init: stopped before every question was answered (Ctrl-C or end of input); nothing written',
        );
      } finally {
        tmuxQuiet(['kill-session', '-t', session]);
      }
      expect(existsSync(join(folder, 'turnkit.config.ts'))).toBe(false);
    },
    300_000,
  );
});
