import type { Convention } from './index.js';

// Drizzle (drizzle-kit generate): snake_case tables and columns, text ids made by `$defaultFn(() => createId())`
// (cuid2: no database default), serial and defaultRandom() uuid keys, foreign keys added afterwards under
// drizzle's long names, timestamptz defaults, and the migrations journal in a schema of its own.
const A = 'tz4a98xxat96iws9zmbrgj3a';
const B = 'pfh0haxfpzowht3oi213cqos';
const P1 = 'nc6bzmkmd014706rfda898to';
const P2 = 'w8wv0k1wmf8qz5xjz5m1y2ab';

/** The Drizzle convention. */
export const DRIZZLE: Convention = {
  name: 'drizzle',
  schema: `
    CREATE SCHEMA IF NOT EXISTS drizzle;
    CREATE TABLE drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint);
    CREATE TABLE "players" ("id" text PRIMARY KEY NOT NULL, "tag" text NOT NULL);
    CREATE TABLE "campaigns" ("id" text PRIMARY KEY NOT NULL, "title" text NOT NULL, "owner_id" text NOT NULL,
      "created_at" timestamp with time zone DEFAULT now() NOT NULL);
    CREATE TABLE "turns" ("id" serial PRIMARY KEY NOT NULL, "campaign_id" text NOT NULL, "turn_number" integer NOT NULL,
      "player_input" text NOT NULL, "narration" text, "created_at" timestamp with time zone DEFAULT now() NOT NULL);
    CREATE TABLE "inventory" ("id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL, "campaign_id" text NOT NULL,
      "item" text NOT NULL, "acquired_turn_id" integer);
    ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_owner_id_players_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;
    ALTER TABLE "turns" ADD CONSTRAINT "turns_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;
    ALTER TABLE "inventory" ADD CONSTRAINT "inventory_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;
    ALTER TABLE "inventory" ADD CONSTRAINT "inventory_acquired_turn_id_turns_id_fk" FOREIGN KEY ("acquired_turn_id") REFERENCES "public"."turns"("id") ON DELETE set null ON UPDATE no action;
    CREATE INDEX "turns_campaign_idx" ON "turns" USING btree ("campaign_id");
    CREATE INDEX "inventory_campaign_idx" ON "inventory" USING btree ("campaign_id");
    CREATE INDEX "inventory_turn_idx" ON "inventory" USING btree ("acquired_turn_id");`,
  data: `
    INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('9f0c', 1735689600000);
    INSERT INTO players VALUES ('${P1}', 'ranger'), ('${P2}', 'bard');
    INSERT INTO campaigns (id, title, owner_id) VALUES ('${A}', 'Ashen Road', '${P1}'), ('${B}', 'Salt Hollow', '${P2}');
    INSERT INTO turns (campaign_id, turn_number, player_input, narration)
      SELECT c, n, 'I walk on ' || n, 'The road bends ' || n FROM unnest(ARRAY['${A}', '${B}']) AS c, generate_series(1, 5) AS n ORDER BY c DESC, n;
    INSERT INTO inventory (campaign_id, item, acquired_turn_id) VALUES
      ('${A}', 'map', NULL), ('${A}', 'torch', 1), ('${A}', 'key', 4), ('${B}', 'salt', 6);`,
  config: {
    game: {
      root: { table: 'campaigns', key: 'id' },
      turns: { table: 'turns', order: 'turn_number', input: ['player_input'] },
      shared: ['players'],
      exclude: ['drizzle.__drizzle_migrations'],
    },
  },
  campaign: A,
  // Turns 1-2; the map (no turn) and the torch (turn 1), not the key of turn 4.
  rows: { campaigns: 1, turns: 2, inventory: 2, players: 1 },
  narration: 'narration',
  writeTurn: `INSERT INTO turns (campaign_id, turn_number, player_input, narration) VALUES ($1, $2, 'sut input', 'sut narration')`,
};
