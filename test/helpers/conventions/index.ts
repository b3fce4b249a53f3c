import type { TurnkitConfigInput } from '../../../src/config/schema.js';
import { PRISMA_CONFIG, PRISMA_DATA, PRISMA_SCHEMA, ROOM_A } from '../prisma-game.js';
import { CHAT } from './chat.js';
import { DJANGO } from './django.js';
import { DRIZZLE } from './drizzle.js';
import { RAILS } from './rails.js';
import { SEQUELIZE } from './sequelize.js';
import { TYPEORM } from './typeorm.js';

/**
 * A game schema written after one ORM's conventions, with two campaigns of five turns: the campaign the tests
 * capture at turn 3, the config a user writes for it, and the rows that fixture holds, counted by hand.
 */
export interface Convention {
  name: string;
  schema: string;
  data: string;
  config: TurnkitConfigInput;
  campaign: string;
  /** Rows per table of the fixture for turn 3 (owned and shared), counted by hand from `data`. */
  rows: Record<string, number>;
  /** The turns table's narration column (what a constructed fixture changes). */
  narration: string;
  /** How the game writes a played turn's row, as a SUT does: $1 the campaign's key (text), $2 the turn number. */
  writeTurn: string;
  /** A game whose turns are several rows: the role value of the row turnkit writes for a SUT that only answers. */
  outputRole?: string;
  /** Rows of the turns table each turn of a 3-turn rollout of a SUT that only answers inserts (default one each). */
  rolloutRows?: number[];
}

/** Prisma: the schema of test/helpers/prisma-game.ts (its six turns, captured at turn 3). */
const PRISMA: Convention = {
  name: 'prisma',
  schema: PRISMA_SCHEMA,
  data: PRISMA_DATA,
  config: PRISMA_CONFIG,
  campaign: ROOM_A,
  rows: { Room: 1, GameState: 1, Player: 2, Item: 3, Turn: 2, User: 2 },
  narration: 'narration',
  // The id is made by the client, as Prisma's cuid() is.
  writeTurn: `INSERT INTO "Turn" ("id", "roomId", "number", "playerInput", "narration")
    VALUES ('c' || substr(md5(random()::text), 1, 24), $1, $2, 'sut input', 'sut narration')`,
};

/** Every convention of the matrix. */
export const CONVENTIONS: Convention[] = [PRISMA, DRIZZLE, TYPEORM, SEQUELIZE, RAILS, DJANGO, CHAT];
