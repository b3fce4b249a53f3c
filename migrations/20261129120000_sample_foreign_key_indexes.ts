// Indexes on the foreign-key columns the first migration left bare. Postgres indexes the referenced side of a
// foreign key, never the referencing one: without these, deleting a location scans every turn and character of
// every campaign, which turns a scratch campaign's teardown quadratic (turnkit warns about such columns).
import { sql, type Kysely } from 'kysely';

/** Indexes every foreign key that a campaign's teardown deletes through. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE INDEX locations_campaign_deck_idx ON locations (campaign_id, deck_number);
    CREATE INDEX locations_parent_location_id_idx ON locations (parent_location_id);
    CREATE INDEX characters_location_id_idx ON characters (location_id);
    CREATE INDEX turns_location_id_idx ON turns (location_id);
    CREATE INDEX campaigns_current_location_id_idx ON campaigns (current_location_id);
  `.execute(db);
}

/** Drops them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP INDEX locations_campaign_deck_idx, locations_parent_location_id_idx, characters_location_id_idx,
      turns_location_id_idx, campaigns_current_location_id_idx;
  `.execute(db);
}
