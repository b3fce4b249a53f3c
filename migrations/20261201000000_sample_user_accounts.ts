// What a real game's users table holds besides a handle: an email address to sign in with and a password hash.
// The sample config scrubs both at capture; they are here so that capture's safe default is exercised on the
// sample game too. Nullable, as a guest account has neither, and so rows written before this migration stay valid.
import { sql, type Kysely } from 'kysely';

/** Adds the sign-in columns to users. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE users ADD COLUMN email text, ADD COLUMN password_hash text;
    ALTER TABLE users ADD CONSTRAINT users_email_key UNIQUE (email);
  `.execute(db);
}

/** Drops them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN password_hash, DROP COLUMN email`.execute(db);
}
