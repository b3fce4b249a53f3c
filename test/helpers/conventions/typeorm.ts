import type { Convention } from './index.js';

// TypeORM (migration:generate): tables named after the entity class, unquoted reserved words quoted ("user"),
// camelCase columns, uuid_generate_v4() keys from uuid-ossp, SERIAL keys, constraints under hashed names
// (PK_..., FK_..., UQ_...), a unique quest name across campaigns, and its "migrations" table.
const A = '6f1c2b9e-0d3a-4f5e-8a7b-1c2d3e4f5a01';
const B = '6f1c2b9e-0d3a-4f5e-8a7b-1c2d3e4f5a02';
const U = '6f1c2b9e-0d3a-4f5e-8a7b-1c2d3e4f5aa1';

/** The TypeORM convention. */
export const TYPEORM: Convention = {
  name: 'typeorm',
  schema: `
    CREATE EXTENSION IF NOT EXISTS "uuid-ossp";
    CREATE TABLE "migrations" ("id" SERIAL NOT NULL, "timestamp" bigint NOT NULL, "name" character varying NOT NULL,
      CONSTRAINT "PK_8c82d7f526340ab734260ea46be" PRIMARY KEY ("id"));
    CREATE TABLE "user" ("id" uuid NOT NULL DEFAULT uuid_generate_v4(), "tag" character varying NOT NULL,
      CONSTRAINT "PK_cace4a159ff9f2512dd42373760" PRIMARY KEY ("id"));
    CREATE TABLE "campaign" ("id" uuid NOT NULL DEFAULT uuid_generate_v4(), "title" character varying NOT NULL,
      "createdAt" TIMESTAMP NOT NULL DEFAULT now(), "ownerId" uuid, CONSTRAINT "PK_0ce34d26e7f2eb316a3a592cdc4" PRIMARY KEY ("id"));
    CREATE TABLE "turn" ("id" SERIAL NOT NULL, "turnNumber" integer NOT NULL, "playerInput" text NOT NULL,
      "narration" text, "campaignId" uuid, CONSTRAINT "PK_2d7a5b3f1e9c0a4b6d8e0f1a2b3" PRIMARY KEY ("id"));
    CREATE TABLE "quest" ("id" SERIAL NOT NULL, "name" character varying NOT NULL, "campaignId" uuid,
      CONSTRAINT "UQ_4e1c7f9a3b5d2e8f0a6c1b3d5e7" UNIQUE ("name"), CONSTRAINT "PK_a37c1f5e9b2d4c6e8f0a1b3c5d7" PRIMARY KEY ("id"));
    ALTER TABLE "campaign" ADD CONSTRAINT "FK_5c5e8f0a1b3d6e9c2f4a7b0d3e6" FOREIGN KEY ("ownerId") REFERENCES "user"("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
    ALTER TABLE "turn" ADD CONSTRAINT "FK_8d2e4f6a0b1c3d5e7f9a1b3c5d8" FOREIGN KEY ("campaignId") REFERENCES "campaign"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
    ALTER TABLE "quest" ADD CONSTRAINT "FK_1f3a5c7e9b0d2f4a6c8e0b2d4f9" FOREIGN KEY ("campaignId") REFERENCES "campaign"("id") ON DELETE CASCADE ON UPDATE NO ACTION;`,
  data: `
    INSERT INTO "migrations" ("timestamp", "name") VALUES (1735689600000, 'Init1735689600000');
    INSERT INTO "user" VALUES ('${U}', 'warden');
    INSERT INTO "campaign" ("id", "title", "ownerId") VALUES ('${A}', 'Iron Vale', '${U}'), ('${B}', 'Reed Marsh', '${U}');
    INSERT INTO "turn" ("turnNumber", "playerInput", "narration", "campaignId")
      SELECT n, 'I climb ' || n, 'The wall holds ' || n, c FROM unnest(ARRAY['${A}', '${B}']::uuid[]) AS c, generate_series(1, 5) AS n;
    INSERT INTO "quest" ("name", "campaignId") VALUES ('Find the smith', '${A}'), ('Cross the reeds', '${B}');`,
  config: {
    game: {
      root: { table: 'campaign', key: 'id' },
      turns: { table: 'turn', order: 'turnNumber', input: ['playerInput'] },
      shared: ['user'],
      exclude: ['migrations'],
    },
  },
  campaign: A,
  rows: { campaign: 1, turn: 2, quest: 1, user: 1 },
  narration: 'narration',
  writeTurn: `INSERT INTO "turn" ("turnNumber", "playerInput", "narration", "campaignId") VALUES ($2, 'sut input', 'sut narration', $1::uuid)`,
};
