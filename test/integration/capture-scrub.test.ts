import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { tableChecksums, registryCounts } from '../helpers/table-checksums.js';
import { TEST_SCRUB, TEST_SCRUB_KEY } from '../helpers/scrub-key.js';
import { ORIGINALS, PRIVACY_CONFIG, PRIVACY_DATA, PRIVACY_SCHEMA } from '../helpers/privacy-schema.js';
import { captureFromDb, type CaptureRequest } from '../../src/fixture/capture/capture.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import type { LoadedConfig } from '../../src/config/load.js';
import type { TurnkitError } from '../../src/errors.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { runQuestion } from '../../src/app/run-question.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { itHasProgram, systemProgram } from '../helpers/system-programs.js';

/** What the detector reports on the privacy schema when the config has no rule. */
const FINDINGS = [
  'audit_logs.ip: looks like an IP address (type inet)',
  'audit_logs.actor_email: looks like an email address (name)',
  'campaigns.settings:$.integrations.dice_bot.api_token: looks like a secret (key name)',
  'turns.player_input: looks like an email address and a phone number (value)',
  'users.email: looks like an email address (name)',
  'users.username: looks like a username (name)',
  'users.password_hash: looks like a secret (name)',
];

const NOW = new Date('2026-12-01T00:00:00.000Z');
const request = (extra: Partial<CaptureRequest> = {}): CaptureRequest => ({
  campaign: '1',
  turns: { turn: 4 },
  now: NOW,
  scrub: TEST_SCRUB,
  ...extra,
});

// Some of its SUTs are shell scripts that read or write their campaign with psql.
const psql = systemProgram('psql');
itHasProgram('psql', psql);

describe.each(BACKENDS)('scrubbing at capture on %s', (backend) => {
  let t: TestDb;
  let unruled: LoadedConfig;
  let fixture: Fixture;
  let text: string;

  const capture = async (config: LoadedConfig = t.config, extra: Partial<CaptureRequest> = {}): Promise<Fixture> =>
    (await captureFromDb(t.db, config, request(extra))).fixtures[0]!;
  const refusal = async (config: LoadedConfig, extra: Partial<CaptureRequest> = {}): Promise<TurnkitError> =>
    captureFromDb(t.db, config, request(extra)).then(
      () => expect.fail('capture should have refused'),
      (error: TurnkitError) => error,
    );

  beforeAll(async () => {
    t = await createTestDb(backend, PRIVACY_CONFIG);
    await t.db.pool.query(PRIVACY_SCHEMA);
    await t.db.pool.query(PRIVACY_DATA);
    unruled = { ...t.config, scrub: {} };
    fixture = await capture();
    text = serializeDocument(fixture);
  });
  afterAll(async () => t?.cleanup());

  it('refuses by default, listing each sensitive column and value and a scrub block, printing none of the values', async () => {
    const error = await refusal(unruled);
    expect(error.problems[0]).toBe(
      'campaign-1-turn-4: capture refused: 7 column(s) or value(s) look like personal or secret data and have no scrub rule ' +
        'in <sample game config> (add rules, keep what is fine, or capture anyway with --allow-sensitive)',
    );
    expect(error.problems.slice(1, 8)).toEqual(FINDINGS);
    expect(error.problems.slice(8)).toEqual([
      'rules to paste into the config (check each):',
      'scrub: {',
      "  'audit_logs.ip': 'ip',",
      "  'audit_logs.actor_email': 'email',",
      "  'campaigns.settings:$.integrations.dice_bot.api_token': 'hash',",
      "  'turns.player_input': { redact: ['email', 'phone'] },",
      "  'users.email': 'email',",
      "  'users.username': 'username',",
      "  'users.password_hash': 'hash',",
      '},',
    ]);
    for (const original of Object.values(ORIGINALS)) expect(error.problems.join('\n')).not.toContain(original);
  });

  it('writes no original value into the fixture, keeps everything else, and records the rules and the key fingerprint', () => {
    const pieces = [
      ...Object.values(ORIGINALS),
      'lovelace',
      'Lovelace',
      'babbage',
      '203.0.113',
      '198.51.100',
      '7946',
      'Zk3QmW8p',
      'argon2id',
    ];
    for (const original of pieces) expect(text, original).not.toContain(original);
    expect(text).not.toContain(TEST_SCRUB_KEY);
    const users = fixture.tables.users!.rows;
    expect(users.map((row) => row.last_login)).toEqual(['2026-03-14T19:00:00+00:00', null]);
    expect(users.map((row) => row.id)).toEqual(['1', '2']);
    for (const row of users) {
      expect(row.email).toMatch(/^[^@\s]+@example\.(com|org|net)$/);
      expect(row.password_hash).toMatch(/^[0-9a-f]{32}$/);
      expect(String(row.username).length).toBeLessThanOrEqual(40);
    }
    expect(fixture.tables.turns!.rows[0]).toMatchObject({
      player_input: 'I wake in the engine room.',
      narration: 'Brass gears turn slowly around you.',
    });
    expect(fixture.tables.audit_logs!.rows.map((row) => row.ip)).toEqual([
      expect.stringMatching(/^10\.\d+\.\d+\.\d+$/),
      expect.stringMatching(/^10\.\d+\.\d+\.\d+\/24$/),
      expect.any(String),
    ]);
    const settings = fixture.tables.campaigns!.rows[0]!.settings as {
      difficulty: string;
      integrations: { dice_bot: { api_token: string }; enabled: boolean };
    };
    expect(settings).toMatchObject({
      difficulty: 'hard',
      integrations: { enabled: true, dice_bot: { api_token: expect.stringMatching(/^[0-9a-f]{32}$/) } },
    });
    expect(fixture.source.scrub).toEqual({
      rules: {
        'audit_logs.actor_email': 'email',
        'audit_logs.ip': 'ip',
        'campaigns.settings:$..api_token': 'hash',
        'turns.narration': 'redact names (1)',
        'turns.player_input': 'redact email, names (1), phone',
        'users.email': 'email',
        'users.password_hash': 'hash',
        'users.username': 'username',
      },
      key: expect.stringMatching(/^hmac-sha256:[0-9a-f]{16}$/),
      // Captured with the pass that replaces scrubbed values elsewhere; the turns' redaction left none to replace.
      everywhere: [],
    });
  });

  it('scrubs one value to one fake everywhere: both tables, inside text, and in the same row shape', () => {
    const users = new Map(fixture.tables.users!.rows.map((row) => [row.id, row]));
    for (const row of fixture.tables.audit_logs!.rows) expect(row.actor_email).toBe(users.get(row.user_id)!.email);
    const [first, , third] = fixture.tables.audit_logs!.rows;
    expect(third!.ip).toBe(first!.ip);
    const turn2 = fixture.tables.turns!.rows[1]!;
    expect(turn2.player_input).toContain(`write to me at ${users.get('1')!.email} or call +`);
    const fakeName = /^My name is ([^;]+);/.exec(String(turn2.player_input))![1]!;
    expect(fakeName).toMatch(/^\S+ \S+$/);
    expect(turn2.narration).toBe(`The clerk notes it down: ${fakeName}, of the engine room.`);
    expect(String(turn2.player_input).length).toBeGreaterThan(60);
  });

  it('captures the same state to the same bytes apart from capturedAt, and another key to other fakes', async () => {
    expect(serializeDocument(await capture())).toBe(text);
    const later = serializeDocument(await capture(t.config, { now: new Date('2030-01-01T00:00:00.000Z') }));
    expect(later.replace('2030-01-01T00:00:00.000Z', NOW.toISOString())).toBe(text);
    const other = await capture(t.config, { scrub: { key: 'another key, also not a secret' } });
    expect(other.tables.users!.rows[0]!.email).not.toBe(fixture.tables.users!.rows[0]!.email);
    expect(other.source.scrub!.key).not.toBe(fixture.source.scrub!.key);
    expect(serializeDocument(other)).not.toContain('another key');
  });

  it('recaptures a changed game with a diff only where the game changed', async () => {
    await t.db.pool.query(`UPDATE turns SET narration = 'The gears stop.' WHERE n = 3`);
    try {
      const after = serializeDocument(await capture()).split('\n');
      const before = text.split('\n');
      expect(after.length).toBe(before.length);
      const changed = before.flatMap((line, i) => (line === after[i] ? [] : [[line.trim(), after[i]!.trim()]]));
      expect(changed).toEqual([['"narration": "He hands you a stack of cards."', '"narration": "The gears stop."']]);
    } finally {
      await t.db.pool.query(`UPDATE turns SET narration = 'He hands you a stack of cards.' WHERE n = 3`);
    }
  });

  it('refuses a collision on a unique column naming it, and a keyed rule without a key', async () => {
    const colliding = {
      ...t.config,
      scrub: {
        ...PRIVACY_CONFIG.scrub,
        users: { email: 'email', password_hash: 'hash', username: { constant: 'player' } },
      },
    } as LoadedConfig;
    const error = await refusal(colliding);
    expect(error.message).toBe(
      '<sample game config>: $.scrub.users.username: scrubbed values of users.username collide on the unique column(s) username of users ' +
        '(1 row(s)); use a transform that keeps values apart (hash, a fake, a function)',
    );
    const keyless = await refusal(t.config, { scrub: {} });
    expect(keyless.message).toBe(
      '<sample game config>: $.scrub: users.email (email), users.username (username) and 6 more need a scrub key: set TURNKIT_SCRUB_KEY ' +
        'to a long random secret (for example `openssl rand -hex 32`) and keep it out of git',
    );
  });

  it('refuses rules on key and foreign-key columns and on columns that do not exist', async () => {
    const rule = async (scrub: Record<string, unknown>): Promise<string> =>
      (await refusal({ ...t.config, scrub } as LoadedConfig)).message;
    expect(await rule({ 'users.id': 'hash' })).toBe(
      '<sample game config>: $.scrub["users.id"]: users.id is part of the primary key: keys and foreign keys are never scrubbed ' +
        '(the rows would no longer join); use keep, or exclude the table',
    );
    expect(await rule({ audit_logs: { user_id: 'null' } })).toMatch(
      /^<sample game config>: \$\.scrub\.audit_logs\.user_id: audit_logs\.user_id is a foreign key \(audit_logs_user_id_fkey\)/,
    );
    expect(await rule({ 'users.emial': 'email' })).toBe(
      '<sample game config>: $.scrub["users.emial"]: table "users" has no column "emial" (did you mean "email"?)',
    );
    expect(await rule({ 'players.email': 'email' })).toBe(
      '<sample game config>: $.scrub["players.email"]: no table "players" in the database',
    );
    expect(await rule({ 'users.last_login': 'hash' })).toBe(
      '<sample game config>: $.scrub["users.last_login"]: hash cannot produce a value of type timestamp with time zone for users.last_login (use null, a constant or a function)',
    );
  });

  it('applies a function rule (a TypeScript config) to the value with its row, and a constant and keep', async () => {
    const scrub = {
      ...PRIVACY_CONFIG.scrub,
      users: {
        email: (_value: unknown, row: Readonly<Record<string, unknown>>) => `player-${String(row.id)}@players.invalid`,
        username: (value: unknown, _row: unknown, context: { digest(text: string): string }) =>
          `p-${context.digest(String(value)).slice(0, 8)}`,
        password_hash: { constant: '!' },
      },
      'audit_logs.ip': 'keep',
    };
    const custom = await capture({ ...t.config, scrub } as LoadedConfig);
    expect(custom.tables.users!.rows.map((row) => [row.email, row.password_hash])).toEqual([
      ['player-1@players.invalid', '!'],
      ['player-2@players.invalid', '!'],
    ]);
    expect(custom.tables.users!.rows.map((row) => row.username)).toEqual([
      expect.stringMatching(/^p-[0-9a-f]{8}$/),
      expect.stringMatching(/^p-[0-9a-f]{8}$/),
    ]);
    expect(custom.tables.audit_logs!.rows[0]!.ip).toBe(ORIGINALS.ip);
    expect(custom.source.scrub!.rules).toMatchObject({
      'users.email': 'function',
      'users.password_hash': 'constant',
      'audit_logs.ip': 'keep',
    });
  });

  it('captures anyway with allowSensitive and records each finding in source.scrub', async () => {
    const outcome = await captureFromDb(t.db, unruled, request({ scrub: { allowSensitive: true } }));
    const allowed = outcome.fixtures[0]!;
    expect(allowed.source.scrub).toEqual({ rules: {}, allowSensitive: [...FINDINGS].sort() });
    expect(allowed.tables.users!.rows[0]!.email).toBe(ORIGINALS.email);
    expect(outcome.warnings.join('\n')).toContain(
      'captured 7 sensitive-looking column(s) or value(s) without a scrub rule',
    );
    expect(outcome.warnings.join('\n')).not.toContain(ORIGINALS.email);
  });

  it.runIf(psql.found)(
    'seeds the scrubbed fixture, runs a question on it and tears down, leaving every table as it was',
    async () => {
      const before = await tableChecksums(t.db);
      for (const strategy of backend === 'postgres' ? (['remap', 'database'] as const) : (['remap'] as const)) {
        const session = new ScratchSession(t.db, { game: t.config.game, strategy });
        try {
          const scratch = await session.seed(fixture);
          expect((await session.check(scratch, fixture)).differences).toEqual([]);
          await scratch.teardown();
        } finally {
          await session.close();
        }
        expect(await tableChecksums(t.db), strategy).toEqual(before);
      }

      // The live rows stay the live rows: the SUT reads the live player's address under the shared key.
      await writeFile(
        join(t.dir, 'turnkit.config.json'),
        JSON.stringify({ game: PRIVACY_CONFIG.game, scrub: PRIVACY_CONFIG.scrub }),
      );
      await mkdir(join(t.dir, 'fixtures'), { recursive: true });
      await mkdir(join(t.dir, 'questions'), { recursive: true });
      await writeFile(join(t.dir, 'fixtures/scrubbed.json'), serializeDocument({ ...fixture, name: 'scrubbed' }));
      await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when the SUT reads its campaign\n');
      await writeFile(
        join(t.dir, 'questions/case.md'),
        '# {{fixture.name}}\n\n{{table:users}}\n\nTurn {{turn}}: {{input}}\n',
      );
      await writeFile(join(t.dir, 'sut.sh'), SUT);
      await chmod(join(t.dir, 'sut.sh'), 0o755);
      await writeFile(join(t.dir, 'questions/reads.yaml'), QUESTION);
      const run = await runQuestion({
        question: 'questions/reads.yaml',
        cwd: t.dir,
        databaseUrl: t.databaseUrl,
        concurrency: 1,
      });
      expect(run).toMatchObject({ status: 'complete', ran: 2, errors: 0 });
      for (const rep of ['01', '02']) {
        const record = JSON.parse(await readFile(join(run.dir, `reps/scrubbed/rep-${rep}.json`), 'utf8')) as RepRecord;
        expect(record.response).toBe(`owner=${ORIGINALS.email} turns=3 last=He hands you a stack of cards.`);
      }
      const caseFile = await readFile(join(run.dir, 'case-files/scrubbed.md'), 'utf8');
      expect(caseFile).toContain(String(fixture.tables.users!.rows[0]!.email));
      for (const original of Object.values(ORIGINALS)) expect(caseFile).not.toContain(original);
      expect(await tableChecksums(t.db)).toEqual(before);
      expect(await registryCounts(t.db)).toMatchObject({ campaigns: 0 });
    },
  );

  it('inserts scrubbed shared rows into a database without them, unique columns satisfied, and removes them after', async () => {
    const empty = await createTestDb(backend, PRIVACY_CONFIG);
    try {
      await empty.db.pool.query(PRIVACY_SCHEMA);
      const before = await tableChecksums(empty.db);
      const session = new ScratchSession(empty.db, { game: empty.config.game });
      try {
        const scratch = await session.seed(fixture);
        const users = await empty.db.pool.query(
          'SELECT id::text, email, username, password_hash FROM users ORDER BY id',
        );
        expect(users.rows).toEqual(
          fixture.tables.users!.rows.map(({ id, email, username, password_hash }) => ({
            id,
            email,
            username,
            password_hash,
          })),
        );
        expect((await session.check(scratch, fixture)).differences).toEqual([]);
        await scratch.teardown();
      } finally {
        await session.close();
      }
      expect(await tableChecksums(empty.db)).toEqual(before);
    } finally {
      await empty.cleanup();
    }
  });
});

// Reads its scratch campaign through DATABASE_URL: the owner's address and the turns it was given.
const SUT = `#!/bin/sh
set -e
cat > /dev/null
owner=$(psql "$DATABASE_URL" -Atc "SELECT u.email FROM campaigns c JOIN users u ON u.id = c.owner_id WHERE c.id = $TURNKIT_CAMPAIGN")
turns=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM turns WHERE campaign_id = $TURNKIT_CAMPAIGN")
last=$(psql "$DATABASE_URL" -Atc "SELECT narration FROM turns WHERE campaign_id = $TURNKIT_CAMPAIGN AND narration IS NOT NULL ORDER BY n DESC LIMIT 1")
echo "owner=$owner turns=$turns last=$last"
`;

const QUESTION = [
  'id: reads',
  'question: Does the SUT read its scrubbed campaign?',
  'rubric: { path: questions/rubric.md, version: "1" }',
  'target: 0.9',
  'reps: 2',
  'fixtures:',
  '  - fixtures/scrubbed.json',
  'sut: { type: command, command: ["./sut.sh"], timeout: 30 }',
  'caseFile: questions/case.md',
  '',
].join('\n');
