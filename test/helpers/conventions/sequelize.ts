import type { Convention } from './index.js';

// Sequelize (sequelize-cli migrations): quoted plural PascalCase tables, SERIAL ids, "createdAt"/"updatedAt"
// timestamptz NOT NULL with no default (Sequelize fills them in the client), PascalCase foreign-key columns
// ("CampaignId"), a unique slug, and the "SequelizeMeta" journal.
/** The Sequelize convention. */
export const SEQUELIZE: Convention = {
  name: 'sequelize',
  schema: `
    CREATE TABLE IF NOT EXISTS "SequelizeMeta" ("name" VARCHAR(255) NOT NULL UNIQUE, PRIMARY KEY ("name"));
    CREATE TABLE IF NOT EXISTS "Users" ("id" SERIAL, "tag" VARCHAR(255), "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL,
      "updatedAt" TIMESTAMP WITH TIME ZONE NOT NULL, PRIMARY KEY ("id"));
    CREATE TABLE IF NOT EXISTS "Campaigns" ("id" SERIAL, "title" VARCHAR(255),
      "UserId" INTEGER REFERENCES "Users" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
      "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL, "updatedAt" TIMESTAMP WITH TIME ZONE NOT NULL, PRIMARY KEY ("id"));
    CREATE TABLE IF NOT EXISTS "Turns" ("id" SERIAL, "turnNumber" INTEGER, "playerInput" TEXT, "narration" TEXT,
      "CampaignId" INTEGER REFERENCES "Campaigns" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
      "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL, "updatedAt" TIMESTAMP WITH TIME ZONE NOT NULL, PRIMARY KEY ("id"));
    CREATE TABLE IF NOT EXISTS "Npcs" ("id" SERIAL, "slug" VARCHAR(255) UNIQUE, "mood" VARCHAR(255),
      "CampaignId" INTEGER REFERENCES "Campaigns" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
      "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL, "updatedAt" TIMESTAMP WITH TIME ZONE NOT NULL, PRIMARY KEY ("id"));`,
  data: `
    INSERT INTO "SequelizeMeta" VALUES ('20250101000000-create-campaigns.js');
    INSERT INTO "Users" ("tag", "createdAt", "updatedAt") VALUES ('keeper', '2025-01-01T10:00:00Z', '2025-01-01T10:00:00Z');
    INSERT INTO "Campaigns" ("title", "UserId", "createdAt", "updatedAt") VALUES
      ('Lantern Bay', 1, '2025-01-01T10:00:00Z', '2025-01-01T10:00:00Z'), ('Dune Sea', 1, '2025-01-01T10:00:00Z', '2025-01-01T10:00:00Z');
    INSERT INTO "Turns" ("turnNumber", "playerInput", "narration", "CampaignId", "createdAt", "updatedAt")
      SELECT n, 'I row ' || n, 'Waves ' || n, c, '2025-01-02T10:00:00Z'::timestamptz + n * interval '1 minute', '2025-01-02T10:00:00Z'
      FROM unnest(ARRAY[1, 2]) AS c, generate_series(1, 5) AS n;
    INSERT INTO "Npcs" ("slug", "mood", "CampaignId", "createdAt", "updatedAt") VALUES
      ('old-harbourmaster', 'gruff', 1, '2025-01-01T10:00:00Z', '2025-01-01T10:00:00Z'),
      ('sand-oracle', 'calm', 2, '2025-01-01T10:00:00Z', '2025-01-01T10:00:00Z');`,
  config: {
    game: {
      root: { table: 'Campaigns', key: 'id' },
      turns: { table: 'Turns', order: 'turnNumber', input: ['playerInput'] },
      shared: ['Users'],
      exclude: ['SequelizeMeta'],
    },
  },
  campaign: '1',
  rows: { Campaigns: 1, Turns: 2, Npcs: 1, Users: 1 },
  narration: 'narration',
  writeTurn: `INSERT INTO "Turns" ("turnNumber", "playerInput", "narration", "CampaignId", "createdAt", "updatedAt")
    VALUES ($2, 'sut input', 'sut narration', $1::int, now(), now())`,
};
