// A game schema as Prisma writes it (`prisma migrate`, unmodified conventions): quoted CamelCase tables and columns,
// a snake_case table mapped by name (`@@map("rooms")`), text cuid ids with no database default, an enum, unique
// indexes (a room's join `code`, a one-to-one session), timestamp(3) columns, `_prisma_migrations`; the narration
// two foreign keys below the room (through its game session), several rows per game turn, and a votes table whose
// `roomId` has no foreign key. Also the set-up its tests share: the config init writes for it, a database holding it,
// room A captured at game turn 3, and a project ready to run a question on that fixture.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_SCRUB } from './scrub-key.js';
import { createTestDb, type TestDb } from './test-db.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { openProject, type Project } from '../../src/project/open-project.js';
import type { TurnkitConfigInput } from '../../src/config/schema.js';

/** A cuid-like id: `c`, then 24 lowercase letters and digits, made from a label so tests can name rows. */
export function cuid(label: string): string {
  return `c${label
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .padEnd(24, '0')
    .slice(0, 24)}`;
}

/** The two rooms (campaigns) of the data. */
export const ROOM_A = cuid('roomalpha');
export const ROOM_B = cuid('roombravo');

/** The schema, as `prisma migrate deploy` leaves it. */
export const PRISMA_SCHEMA = `
CREATE TABLE "_prisma_migrations" (
  "id" VARCHAR(36) NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT "_prisma_migrations_pkey" PRIMARY KEY ("id")
);
CREATE TYPE "EntryType" AS ENUM ('ACTION', 'DICE', 'NARRATION', 'SYSTEM');
CREATE TABLE "User" (
  "id" TEXT NOT NULL, "username" TEXT NOT NULL, "email" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
CREATE TABLE "rooms" (
  "id" TEXT NOT NULL, "code" TEXT NOT NULL, "name" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" TIMESTAMP(3) NOT NULL,
  CONSTRAINT "rooms_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "rooms_code_key" ON "rooms"("code");
CREATE TABLE "Player" (
  "id" TEXT NOT NULL, "roomId" TEXT NOT NULL, "userId" TEXT NOT NULL, "characterName" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "Player_pkey" PRIMARY KEY ("id")
);
CREATE TABLE "GameSession" (
  "id" TEXT NOT NULL, "roomId" TEXT NOT NULL, "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "GameSession_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "GameSession_roomId_key" ON "GameSession"("roomId");
CREATE TABLE "NarrativeEntry" (
  "id" TEXT NOT NULL, "sessionId" TEXT NOT NULL, "playerId" TEXT, "turn" INTEGER NOT NULL,
  "type" "EntryType" NOT NULL, "content" TEXT NOT NULL, "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "NarrativeEntry_pkey" PRIMARY KEY ("id")
);
CREATE TABLE "votes" (
  "id" TEXT NOT NULL, "roomId" TEXT NOT NULL, "turn" INTEGER NOT NULL, "choice" TEXT NOT NULL,
  CONSTRAINT "votes_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "Player" ADD CONSTRAINT "Player_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "rooms"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Player" ADD CONSTRAINT "Player_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "GameSession" ADD CONSTRAINT "GameSession_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "rooms"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "NarrativeEntry" ADD CONSTRAINT "NarrativeEntry_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "GameSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "NarrativeEntry" ADD CONSTRAINT "NarrativeEntry_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE SET NULL ON UPDATE CASCADE;
`;

/** Rows: two rooms of two players each; turns 1 to 4 of room A (action, dice, narration each), one turn of room B. */
export const PRISMA_DATA = (() => {
  const lines = [
    `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "finished_at", "applied_steps_count") VALUES ('0c1f4e5a-9d2b-4c3e-8f7a-1b2c3d4e5f60', 'f00d', '20260101000000_init', now(), 1);`,
    `INSERT INTO "User" ("id", "username", "email") VALUES ('${cuid('userada')}', 'ada', 'ada@example.org'), ('${cuid('userbo')}', 'bo', 'bo@example.org'), ('${cuid('usercy')}', 'cy', 'cy@example.org');`,
    `INSERT INTO "rooms" ("id", "code", "name", "updatedAt") VALUES ('${ROOM_A}', 'QX7K2P', 'The Drowned Keep', '2026-01-01 10:00:00'), ('${ROOM_B}', 'M3RT9Z', 'Ash Road', '2026-01-02 10:00:00');`,
    `INSERT INTO "Player" ("id", "roomId", "userId", "characterName") VALUES ('${cuid('playera1')}', '${ROOM_A}', '${cuid('userada')}', 'Wren'), ('${cuid('playera2')}', '${ROOM_A}', '${cuid('userbo')}', 'Tamsin'), ('${cuid('playerb1')}', '${ROOM_B}', '${cuid('usercy')}', 'Odo');`,
    `INSERT INTO "GameSession" ("id", "roomId", "startedAt") VALUES ('${cuid('sessiona')}', '${ROOM_A}', '2026-01-01 10:00:00'), ('${cuid('sessionb')}', '${ROOM_B}', '2026-01-02 10:00:00');`,
  ];
  const entries: string[] = [];
  for (let turn = 1; turn <= 4; turn++) {
    const at = (second: number) =>
      `'2026-01-01 10:${String(turn).padStart(2, '0')}:${String(second).padStart(2, '0')}'`;
    const player = cuid(turn % 2 === 1 ? 'playera1' : 'playera2');
    entries.push(
      `('${cuid(`entrya${turn}act`)}', '${cuid('sessiona')}', '${player}', ${turn}, 'ACTION', 'I search room ${turn}.', ${at(0)})`,
      `('${cuid(`entrya${turn}dice`)}', '${cuid('sessiona')}', NULL, ${turn}, 'DICE', 'd20: ${10 + turn}', ${at(1)})`,
      `('${cuid(`entrya${turn}narr`)}', '${cuid('sessiona')}', NULL, ${turn}, 'NARRATION', 'Room ${turn} is empty.', ${at(2)})`,
    );
  }
  entries.push(
    `('${cuid('entryb1act')}', '${cuid('sessionb')}', '${cuid('playerb1')}', 1, 'ACTION', 'I walk.', '2026-01-02 10:01:00')`,
    `('${cuid('entryb1narr')}', '${cuid('sessionb')}', NULL, 1, 'NARRATION', 'The road is long.', '2026-01-02 10:01:02')`,
  );
  lines.push(
    `INSERT INTO "NarrativeEntry" ("id", "sessionId", "playerId", "turn", "type", "content", "createdAt") VALUES ${entries.join(', ')};`,
  );
  const votes: string[] = [];
  for (let turn = 1; turn <= 4; turn++) votes.push(`('${cuid(`votea${turn}`)}', '${ROOM_A}', ${turn}, 'left')`);
  votes.push(`('${cuid('voteb1')}', '${ROOM_B}', 1, 'right')`);
  lines.push(`INSERT INTO "votes" ("id", "roomId", "turn", "choice") VALUES ${votes.join(', ')};`);
  return lines.join('\n');
})();

/**
 * The game as `init` infers it from this schema: the room, the narration two foreign keys below it with its game turn
 * and roles, the users shared, the migrations table out, the votes' room declared and their turn column named.
 */
export const PRISMA_STYLE_GAME = {
  root: { table: 'rooms', key: 'id' },
  turns: {
    table: 'NarrativeEntry',
    order: 'createdAt',
    turn: 'turn',
    role: { column: 'type', input: ['ACTION'], output: 'NARRATION' },
    input: ['content'],
  },
  shared: ['User'],
  exclude: ['_prisma_migrations'],
  references: { 'votes.roomId': 'rooms' },
  turnColumns: { votes: 'turn' },
} satisfies TurnkitConfigInput['game'];

/** The config the tests run with: that game, the usernames kept and the emails scrubbed. */
export const PRISMA_STYLE_CONFIG: TurnkitConfigInput = {
  game: PRISMA_STYLE_GAME,
  scrub: { 'User.username': 'keep', 'User.email': 'email' },
};

/** A fresh test database of the backend holding the schema and its rows (then `extra` SQL, when given). */
export async function prismaStyleDb(
  backend: 'embedded' | 'postgres',
  config: TurnkitConfigInput = PRISMA_STYLE_CONFIG,
  extra?: string,
): Promise<TestDb> {
  const t = await createTestDb(backend, config);
  await t.db.pool.query(PRISMA_SCHEMA);
  await t.db.pool.query(PRISMA_DATA);
  if (extra !== undefined) await t.db.pool.query(extra);
  return t;
}

/** Room A captured at game turn 3 under the database's config: turns 1 and 2 whole, turn 3's action. */
export async function captureRoomA(t: TestDb): Promise<Fixture> {
  const { fixtures } = await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign: ROOM_A, turns: { turn: 3 } });
  return fixtures[0]!;
}

/** A database, and a project on it whose fixtures/keep.json is room A at turn 3, with a rubric and a case file. */
export interface PrismaStyleProject {
  t: TestDb;
  project: Project;
  /** The question fields every run of these tests shares: the rubric, the fixture, the case file. */
  files: { rubric: { path: string; version: string }; fixtures: string[]; caseFile: string };
  close(): Promise<void>;
}

/** Opens such a project; `rubric` is the rubric's text. */
export async function prismaStyleProject(
  backend: 'embedded' | 'postgres',
  config: TurnkitConfigInput,
  rubric: string,
): Promise<PrismaStyleProject> {
  const t = await prismaStyleDb(backend, config);
  const project = await openProject({ cwd: t.dir, config, db: t.db });
  const fixture = await captureRoomA(t);
  await mkdir(join(t.dir, 'fixtures'), { recursive: true });
  await mkdir(join(t.dir, 'questions'), { recursive: true });
  await writeFile(join(t.dir, 'fixtures/keep.json'), serializeDocument({ ...fixture, name: 'keep' }));
  await writeFile(join(t.dir, 'questions/rubric.md'), rubric);
  await writeFile(join(t.dir, 'questions/case.md'), 'Turn {{turn}}: {{input}}\n');
  return {
    t,
    project,
    files: {
      rubric: { path: 'questions/rubric.md', version: '1' },
      fixtures: ['fixtures/keep.json'],
      caseFile: 'questions/case.md',
    },
    close: async () => {
      await project.close();
      await t.cleanup();
    },
  };
}
