// The client-made-keys part of `npm run bench:scratch`: a Prisma-style game (text cuid ids with no database
// default, a unique six-letter join code, integer keys the application numbers itself), seeded and torn down by
// turnkit's remap against SQL written by hand for that one schema (ids made in JavaScript, one
// json_populate_recordset insert per table, one DELETE ... = ANY per table), interleaved rep by rep.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { configSchema } from '../src/config/schema.js';
import type { LoadedConfig } from '../src/config/load.js';
import type { Db } from '../src/db/connect.js';
import { captureFromDb } from '../src/fixture/capture/capture.js';
import type { Fixture } from '../src/fixture/format.js';
import { ScratchSession } from '../src/scratch/scratch-session.js';
import { PRISMA_CONFIG, PRISMA_SCHEMA } from '../test/helpers/prisma-game.js';

const ORDER = ['Room', 'GameState', 'Player', 'Item', 'Turn'] as const;
/** Which columns hold keys, and whose key each one follows. */
const KEYS: Record<string, Record<string, string>> = {
  Room: { id: 'Room', code: 'code' },
  GameState: { id: 'GameState', roomId: 'Room' },
  Player: { id: 'Player', roomId: 'Room' },
  Item: { id: 'Item', playerId: 'Player' },
  Turn: { id: 'Turn', roomId: 'Room' },
};

const cuid = (): string =>
  `c${BigInt(`0x${randomBytes(16).toString('hex')}`)
    .toString(36)
    .padStart(24, '0')
    .slice(0, 24)}`;
const code = (): string => Array.from(randomBytes(6), (byte) => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[byte % 32]).join('');

/** Fills the game with one room of `turns` turns beside three rooms of 1,000; returns that room's id. */
export async function createRoom(db: Db, turns: number, tag: string): Promise<string> {
  const room = `c${tag.padEnd(24, 'x')}`;
  await db.pool.query(`
    INSERT INTO "User" ("id", "username") VALUES ('${room}u', 'user-${tag}');
    INSERT INTO "Room" ("id", "code", "name", "ownerId") VALUES ('${room}', '${code()}', 'Room ${tag}', '${room}u');
    INSERT INTO "GameState" ("id", "roomId", "hp") VALUES ('${room}s', '${room}', 10);
    INSERT INTO "Player" ("id", "roomId", "userId", "class") VALUES ('${room}p', '${room}', '${room}u', 'ranger');
    INSERT INTO "Item" ("id", "playerId", "name")
      SELECT coalesce((SELECT max(id) FROM "Item"), 0) + n, '${room}p', 'item ' || n FROM generate_series(1, 10) AS n;
    INSERT INTO "Turn" ("id", "roomId", "number", "playerInput", "narration")
      SELECT '${room}t' || n, '${room}', n, 'I look around, turn ' || n, 'You see the hall of turn ' || n
      FROM generate_series(1, ${turns}) AS n;`);
  return room;
}

interface Seeded {
  ids: Record<string, string[]>;
}

/** Seed by hand: new ids made here (a range above the maximum for Item), one insert per table. */
export async function handSeed(client: pg.PoolClient, fixture: Fixture): Promise<Seeded> {
  await client.query('BEGIN');
  const top = Number((await client.query('SELECT coalesce(max(id), 0) AS top FROM "Item"')).rows[0].top);
  const maps: Record<string, Map<unknown, unknown>> = {};
  const ids: Record<string, string[]> = {};
  for (const table of ORDER) {
    const rows = fixture.tables[table]!.rows;
    const fresh = rows.map((_, i) => (table === 'Item' ? top + i + 1 : cuid()));
    maps[table] = new Map(rows.map((row, i) => [row.id, fresh[i]]));
    ids[table] = fresh.map(String);
  }
  for (const table of ORDER) {
    const rows = fixture.tables[table]!.rows.map((row) => {
      const copy: Record<string, unknown> = { ...row };
      for (const [column, follows] of Object.entries(KEYS[table]!))
        copy[column] = follows === 'code' ? code() : maps[follows]!.get(row[column]);
      return copy;
    });
    await client.query(`INSERT INTO "${table}" SELECT * FROM json_populate_recordset(NULL::"${table}", $1::json)`, [
      JSON.stringify(rows),
    ]);
  }
  await client.query('COMMIT');
  return { ids };
}

export async function handTeardown(client: pg.PoolClient, seeded: Seeded): Promise<void> {
  await client.query('BEGIN');
  for (const table of [...ORDER].reverse())
    await client.query(`DELETE FROM "${table}" WHERE id = ANY($1::${table === 'Item' ? 'int' : 'text'}[])`, [
      seeded.ids[table],
    ]);
  await client.query('COMMIT');
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/** Prints remap against hand-written SQL for a Prisma-style game at each size, as ratios. */
export async function benchClientKeys(
  db: Db,
  scratchUrl: string | undefined,
  sizes: readonly number[],
  repeats: number,
) {
  await db.pool.query(PRISMA_SCHEMA);
  for (let i = 0; i < 3; i++) await createRoom(db, 1000, `other${i}`);
  const config: LoadedConfig = {
    ...configSchema.parse({ ...PRISMA_CONFIG, database: { url: scratchUrl } }),
    baseDir: '.',
    file: undefined,
  };
  const session = new ScratchSession(db, { game: config.game, strategy: 'remap' });
  console.log('');
  console.log(
    'client-made keys (a Prisma-style game: text cuid ids, a unique join code, integer keys without a sequence)',
  );
  const lines = [['turns', 'rows', 'hand total', 'remap total', 'remap/hand', 'paired']];
  for (const turns of sizes) {
    const room = await createRoom(db, turns + 1, `size${turns}`);
    const fixture = (await captureFromDb(db, config, { campaign: room, turns: { turn: turns + 1 } })).fixtures[0]!;
    const rows = Object.values(fixture.tables).reduce((sum, table) => sum + table.rows.length, 0);
    const hand: number[] = [];
    const remap: number[] = [];
    await (await session.seed(fixture)).teardown(); // warm-up: the plan, the catalog, the server's caches
    for (let rep = 0; rep < repeats; rep++) {
      const byHand = async (): Promise<void> => {
        const client = await db.pool.connect();
        try {
          const started = performance.now();
          await handTeardown(client, await handSeed(client, fixture));
          hand.push(performance.now() - started);
        } finally {
          client.release();
        }
      };
      const byRemap = async (): Promise<void> => {
        const started = performance.now();
        await (await session.seed(fixture)).teardown();
        remap.push(performance.now() - started);
      };
      // Which goes first alternates, so that neither always meets the other's dead rows or a busier moment.
      if (rep % 2 === 0) await byHand().then(byRemap);
      else await byRemap().then(byHand);
    }
    // Each rep's pair ran moments apart: the median of their ratios shakes off more of a loaded machine's drift
    // than the ratio of the medians.
    const paired = median(remap.map((ms, i) => ms / hand[i]!));
    lines.push([
      String(turns),
      String(rows),
      median(hand).toFixed(1),
      median(remap).toFixed(1),
      `${(median(remap) / median(hand)).toFixed(2)}x`,
      `${paired.toFixed(2)}x`,
    ]);
  }
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((line) => line[i]!.length)));
  for (const line of lines) console.log(line.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
  console.log(
    'paired = median over reps of remap/hand, each rep timing both moments apart (which goes first alternates)',
  );
  console.log('goal: remap with client-made keys within 1.3x of hand at every size');
}
