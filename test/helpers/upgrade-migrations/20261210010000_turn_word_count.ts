// Test migration for turnkit upgrade: a new NOT NULL column the migration backfills from existing rows.
import { sql, type Kysely } from 'kysely';

/** Adds turns.word_count, filled from the player's input, then NOT NULL. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE turns ADD COLUMN word_count integer;
    UPDATE turns SET word_count = coalesce(array_length(regexp_split_to_array(btrim(player_input), '\\s+'), 1), 0);
    ALTER TABLE turns ALTER COLUMN word_count SET NOT NULL;
  `.execute(db);
}

/** Drops it. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE turns DROP COLUMN word_count`.execute(db);
}
