// Test migration for turnkit upgrade: a column of players' email addresses, which capture must not take unscrubbed.
import { sql, type Kysely } from 'kysely';

/** Adds users.contact_email, filled for every player. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE users ADD COLUMN contact_email text;
    UPDATE users SET contact_email = 'player' || id || '@players.example.com';
  `.execute(db);
}

/** Drops it. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN contact_email`.execute(db);
}
