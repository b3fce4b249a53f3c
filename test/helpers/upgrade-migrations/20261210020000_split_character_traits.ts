// Test migration for turnkit upgrade: a table split in two (characters' traits move to a table of their own,
// keyed by the character, so the split gives the same keys wherever it runs).
import { sql, type Kysely } from 'kysely';

/** Moves characters.traits into character_traits. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE character_traits (
      character_id uuid PRIMARY KEY REFERENCES characters (id),
      traits jsonb NOT NULL DEFAULT '{}'
    );
    INSERT INTO character_traits (character_id, traits) SELECT id, traits FROM characters;
    ALTER TABLE characters DROP COLUMN traits;
  `.execute(db);
}

/** Moves them back. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE characters ADD COLUMN traits jsonb NOT NULL DEFAULT '{}';
    UPDATE characters AS c SET traits = t.traits FROM character_traits AS t WHERE t.character_id = c.id;
    DROP TABLE character_traits;
  `.execute(db);
}
