/**
 * Names of environment variables whose values are secrets (API keys, tokens, passwords, personal access tokens, DSNs,
 * authorization headers, JWTs, webhooks, cookies).
 */
const SECRET_NAME =
  /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|(^|_)PASS($|_)|_PWD$|(^|_)AUTH($|_)|AUTHORI[SZ]ATION|(^|_)PAT($|_)|DSN|JWT|WEBHOOK|COOKIE|(^|_)SIG(NATURE)?($|_)|BEARER/i;

/** Names that match the above and hold no secret: a socket's path (SSH_AUTH_SOCK), the shell's folders. */
const NOT_SECRET_NAME = /_SOCK$|^(OLD)?PWD$/i;

/**
 * The environment a SUT inherits from turnkit's: every variable but the secret-named ones (the scrub key, the judges'
 * and the SUT's own API keys, tokens, passwords), which a SUT that needs one is given by name in its `sut.env`
 * (`OPENAI_API_KEY: "${OPENAI_API_KEY}"`). What a SUT cannot see, it cannot print into a rep.
 */
export function inheritedEnv(
  env: Readonly<Record<string, string | undefined>> | undefined,
): Record<string, string | undefined> {
  // libpq's PG* variables too: a `psql` with no URL would otherwise reach the database they name (the live one).
  return Object.fromEntries(Object.entries(env ?? {}).filter(([name]) => !isSecretName(name) && !LIBPQ.test(name)));
}

// PGHOST, PGDATABASE, PGUSER, PGPASSWORD, PGSERVICE...: where libpq connects when no URL says otherwise.
const LIBPQ = /^PG[A-Z_]+$/;

/**
 * The values of an environment's secret-named variables (four characters or more: shorter ones would mask common
 * words): what a line echoed from a child process is masked of before turnkit prints it.
 */
export function secretValues(env: Readonly<Record<string, string | undefined>> | undefined): string[] {
  return Object.entries(env ?? {})
    .filter(([name, value]) => isSecretName(name) && value !== undefined && value.length >= 4)
    .map(([, value]) => value!);
}

/** Whether a variable's name says its value is a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_SECRET_NAME.test(name);
}
