import type { TurnkitConfigInput } from '../../src/config/schema.js';

// Plain data, no test runner (bench:scratch reads it too).
// A game shaped the way Prisma shapes one, applied as `prisma migrate` writes it: quoted CamelCase tables and
// columns, text ids the client makes (cuid, no database default), @unique as a unique INDEX (not a constraint), a
// six-letter join code, a one-to-one relation (a unique foreign key), an enum, timestamp(3), an integer key the
// application numbers itself (no sequence), and Prisma's own `_prisma_migrations` table.
/** The Prisma-style schema. */
export const PRISMA_SCHEMA = `
  CREATE TABLE "_prisma_migrations" ("id" VARCHAR(36) NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0, PRIMARY KEY ("id"));
  CREATE TYPE "Mood" AS ENUM ('CALM', 'TENSE', 'DIRE');
  CREATE TABLE "User" ("id" TEXT NOT NULL, "username" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, CONSTRAINT "User_pkey" PRIMARY KEY ("id"));
  CREATE UNIQUE INDEX "User_username_key" ON "User"("username");
  CREATE TABLE "Room" ("id" TEXT NOT NULL, "code" TEXT NOT NULL, "name" TEXT NOT NULL, "ownerId" TEXT NOT NULL,
    "mood" "Mood" NOT NULL DEFAULT 'CALM', "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Room_pkey" PRIMARY KEY ("id"));
  CREATE UNIQUE INDEX "Room_code_key" ON "Room"("code");
  CREATE TABLE "GameState" ("id" TEXT NOT NULL, "roomId" TEXT NOT NULL, "hp" INTEGER NOT NULL,
    CONSTRAINT "GameState_pkey" PRIMARY KEY ("id"));
  CREATE UNIQUE INDEX "GameState_roomId_key" ON "GameState"("roomId");
  CREATE TABLE "Player" ("id" TEXT NOT NULL, "roomId" TEXT NOT NULL, "userId" TEXT NOT NULL, "class" TEXT NOT NULL,
    CONSTRAINT "Player_pkey" PRIMARY KEY ("id"));
  CREATE UNIQUE INDEX "Player_roomId_userId_key" ON "Player"("roomId", "userId");
  CREATE TABLE "Turn" ("id" TEXT NOT NULL, "roomId" TEXT NOT NULL, "number" INTEGER NOT NULL, "playerInput" TEXT NOT NULL,
    "narration" TEXT, "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, CONSTRAINT "Turn_pkey" PRIMARY KEY ("id"));
  CREATE UNIQUE INDEX "Turn_roomId_number_key" ON "Turn"("roomId", "number");
  CREATE TABLE "Item" ("id" INTEGER NOT NULL, "playerId" TEXT NOT NULL, "name" TEXT NOT NULL,
    CONSTRAINT "Item_pkey" PRIMARY KEY ("id"));
  ALTER TABLE "Room" ADD CONSTRAINT "Room_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
  ALTER TABLE "GameState" ADD CONSTRAINT "GameState_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;
  ALTER TABLE "Player" ADD CONSTRAINT "Player_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;
  ALTER TABLE "Player" ADD CONSTRAINT "Player_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
  ALTER TABLE "Turn" ADD CONSTRAINT "Turn_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;
  ALTER TABLE "Item" ADD CONSTRAINT "Item_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;
`;

/** A cuid-like id (what Prisma's `@default(cuid())` makes in the client): `c` and 24 lowercase letters and digits. */
export const cuid = (tag: string): string => `c${tag.padEnd(24, '0').slice(0, 24)}`;

/** Room A, the campaign the tests capture, and room B beside it. */
export const ROOM_A = cuid('lx9roomaaaa');
export const ROOM_B = cuid('lx9roombbbb');
/** Room A's join code. */
export const CODE_A = 'K7QMZD';

const users = [cuid('lx9userada'), cuid('lx9userbob'), cuid('lx9usercy')];

/** Two rooms, each with its state, two players, items numbered by the application, and six turns. */
export const PRISMA_DATA = `
  INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "finished_at") VALUES
    ('7d1e3c2a-0000-4000-8000-000000000001', 'abc', '20250101000000_init', now());
  INSERT INTO "User" ("id", "username") VALUES ('${users[0]}', 'ada'), ('${users[1]}', 'bob'), ('${users[2]}', 'cy');
  INSERT INTO "Room" ("id", "code", "name", "ownerId", "mood") VALUES
    ('${ROOM_A}', '${CODE_A}', 'The Sunken Keep', '${users[0]}', 'TENSE'),
    ('${ROOM_B}', 'PW3HXN', 'Glass Moors', '${users[2]}', 'CALM');
  INSERT INTO "GameState" ("id", "roomId", "hp") VALUES ('${cuid('lx9statea')}', '${ROOM_A}', 12), ('${cuid('lx9stateb')}', '${ROOM_B}', 30);
  INSERT INTO "Player" ("id", "roomId", "userId", "class") VALUES
    ('${cuid('lx9playa1')}', '${ROOM_A}', '${users[0]}', 'ranger'), ('${cuid('lx9playa2')}', '${ROOM_A}', '${users[1]}', 'cleric'),
    ('${cuid('lx9playb1')}', '${ROOM_B}', '${users[2]}', 'bard');
  INSERT INTO "Item" ("id", "playerId", "name") VALUES
    (1, '${cuid('lx9playa1')}', 'rope'), (2, '${cuid('lx9playa1')}', 'lantern'), (3, '${cuid('lx9playa2')}', 'mace'),
    (7, '${cuid('lx9playb1')}', 'lute');
  INSERT INTO "Turn" ("id", "roomId", "number", "playerInput", "narration")
    SELECT 'c' || lpad('lx9turna' || n, 24, '0'), '${ROOM_A}', n, 'I do thing ' || n, 'It happens ' || n FROM generate_series(1, 6) AS n;
  INSERT INTO "Turn" ("id", "roomId", "number", "playerInput", "narration")
    SELECT 'c' || lpad('lx9turnb' || n, 24, '0'), '${ROOM_B}', n, 'Elsewhere ' || n, 'Far away ' || n FROM generate_series(1, 6) AS n;
`;

/** The game config of the Prisma-style schema, as a new user writes it (the migrations table left out). */
export const PRISMA_CONFIG: TurnkitConfigInput = {
  game: {
    root: { table: 'Room', key: 'id' },
    turns: { table: 'Turn', order: 'number', input: ['playerInput'] },
    shared: ['User'],
    exclude: ['_prisma_migrations'],
  },
  // Usernames of made-up test players, kept as they are.
  scrub: { 'User.username': 'keep' },
};
