import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../src/fixture/format.js';
import { detectSensitive, findingText } from '../../src/fixture/scrub/detect-sensitive.js';
import { suggestedScrubBlock } from '../../src/fixture/scrub/suggest-rules.js';
import { kindsByValue } from '../../src/fixture/scrub/value-detector.js';
import { redactor, redactText } from '../../src/fixture/scrub/redact-text.js';
import { ScrubKey } from '../../src/fixture/scrub/scrub-key.js';
import { Fakes } from '../../src/fixture/scrub/fake-values.js';
import { checkClaims } from '../../src/fixture/scrub/check-claims.js';
import { keyStrength } from '../../src/fixture/scrub/key-strength.js';
import { Scrubber } from '../../src/fixture/scrub/scrubber.js';
import { checkEverywhereMarker } from '../../src/fixture/scrub/verify-scrubbed.js';
import { suggestScrub } from '../../src/init/suggest-scrub.js';
import type { Catalog, TableInfo } from '../../src/db/catalog-types.js';
import { TEST_SCRUB_KEY } from '../helpers/scrub-key.js';
import { DEMO_SCRUB_KEY } from '../../src/fixture/scrub/demo-key.js';

const NONE = { column: () => false, hasPaths: () => false, path: () => false };

/** A fixture of one table `t` (key `id`) with the given columns and rows. */
function fixtureOf(columns: Record<string, string>, rows: Record<string, unknown>[], rules?: Record<string, string>) {
  return {
    format: 'turnkit.fixture/1',
    name: 'unit',
    source: {
      database: 'embedded',
      serverVersion: '18',
      root: { table: 't', key: 'id', value: '1' },
      turns: { table: 'turns', order: 'n' },
      turn: 2,
      latestTurn: 2,
      capturedAt: '2026-12-01T00:00:00.000Z',
      schemaFingerprint: 'sha256:0',
      ...(rules ? { scrub: { rules } } : {}),
    },
    input: { turn: 2, values: {} },
    tables: {
      t: {
        role: 'root',
        columns: [
          { name: 'id', type: 'bigint', nullable: false },
          ...Object.entries(columns).map(([name, type]) => ({ name, type, nullable: true })),
        ],
        primaryKey: ['id'],
        foreignKeys: [],
        rows: rows.map((row, i) => ({ id: String(i + 1), ...row })),
      },
    },
  } as unknown as Fixture;
}

const found = (fixture: Fixture): string[] => detectSensitive(fixture, NONE).map(findingText);

describe('the detector on what capture used to miss (issue 30.1)', () => {
  it('flags display names, handles and nicknames by column name', () => {
    const fixture = fixtureOf(
      {
        display_name: 'text',
        handle: 'text',
        nick: 'text',
        nickname: 'text',
        full_name: 'text',
        real_name: 'text',
        displayName: 'varchar(40)',
      },
      [],
    );
    expect(found(fixture)).toEqual([
      "t.display_name: looks like a person's name (name)",
      't.handle: looks like a username (name)',
      't.nick: looks like a username (name)',
      't.nickname: looks like a username (name)',
      "t.full_name: looks like a person's name (name)",
      "t.real_name: looks like a person's name (name)",
      "t.displayName: looks like a person's name (name)",
    ]);
  });

  it('flags numbers and arrays under sensitive keys, email keys, oauth objects and JSON inside strings, by path', () => {
    const settings = {
      contact: { phone: 442079460958, backup_tokens: ['a1b2c3d4e5', 'f6g7h8i9j0'] },
      friends: { 'dana.whitfield@realmail.io': { since: 2020 } },
      oauth: { provider: 'discord', access: 'x9Qm2Lr8Tz', expires_in: 3600 },
      blob: JSON.stringify({ owner: { email: 'dana.whitfield@realmail.io' } }),
      tokens_used: 1200,
      story: { secrets: ['She once served on the Meridian.'] },
    };
    const fixture = fixtureOf({ settings: 'jsonb' }, [{ settings }]);
    const lines = found(fixture);
    expect(lines).toEqual([
      't.settings:$.contact.phone: looks like a phone number (key name)',
      't.settings:$.contact.backup_tokens[*]: looks like a secret (key name)',
      't.settings:$.friends: looks like an email address (a key inside)',
      't.settings:$.oauth.provider: looks like a secret (key name)',
      't.settings:$.oauth.access: looks like a secret (key name)',
      't.settings:$.blob: looks like an email address (value, JSON inside a string)',
    ]);
    expect(lines.join('\n')).not.toMatch(/dana|realmail|4420|x9Qm|a1b2/);
    expect(suggestedScrubBlock(detectSensitive(fixture, NONE), false)).toEqual([
      'scrub: {',
      "  't.settings:$.contact.phone': 'hash',",
      "  't.settings:$.contact.backup_tokens[*]': 'hash',",
      "  't.settings:$.friends': 'null',",
      "  't.settings:$.oauth.provider': 'hash',",
      "  't.settings:$.oauth.access': 'hash',",
      "  't.settings:$.blob': 'hash',",
      '},',
    ]);
  });

  it('flags IP addresses, phone numbers, street addresses, dates of birth and internationalised emails in text', () => {
    const cases: [string, string[]][] = [
      ['I connect from 203.0.113.77 tonight.', ['ip']],
      ['My box is at 2001:db8:85a3::8a2e:370:7334, ping it.', ['ip']],
      ['Call me on +44 20 7946 0958.', ['phone']],
      ['Text +4915112345678 when you land.', ['phone']],
      ['My number is (555) 123-4567.', ['phone']],
      ['Ring 020 7946 0958 after six.', ['phone']],
      ['Ring 07700 900123 after six.', ['phone']],
      ['Send it to 221B Baker Street, London.', ['address']],
      ['Ich wohne in der Hauptstraße 5 in Köln.', ['address']],
      ['I was born on 14/03/1990 in Leeds.', ['birth']],
      ['DOB: March 14, 1990', ['birth']],
      ['Write to dana@bücher.de please.', ['email']],
    ];
    for (const [text, kinds] of cases)
      expect(
        kindsByValue(text).map((hit) => hit.kind),
        text,
      ).toEqual(kinds);
    for (const text of [
      'At 19:30:00 on 2026-03-14 the lift reaches deck 3.',
      'Version 1.2.3 of the drive, room 101, 2d6 damage.',
      'You roll 12 and 7; the door code is 4471.',
      'Reyes was born to fly.',
      'Write to crew@example.org for the manifest.',
      // A storage path holding a uuid: its digit groups are no phone number.
      'campaigns/10000000-0000-0000-0000-00000000000a/map.tif',
    ])
      expect(kindsByValue(text), text).toEqual([]);
    // A phone number beside a uuid is still one.
    expect(
      kindsByValue('ticket 10000000-0000-0000-0000-00000000000a: call 555-123-4567').map((hit) => hit.kind),
    ).toEqual(['phone']);
    const fixture = fixtureOf({ bio: 'text' }, [
      { bio: 'born 1990-03-14; reach me at +44 20 7946 0958' },
      { bio: 'from 203.0.113.77' },
    ]);
    expect(found(fixture)).toEqual(['t.bio: looks like an IP address and a phone number and a date of birth (value)']);
    expect(suggestedScrubBlock(detectSensitive(fixture, NONE), false)).toEqual([
      'scrub: {',
      "  't.bio': { redact: ['ip', 'phone', 'birth'] },",
      '},',
    ]);
  });

  it('redacts IP addresses, street addresses and dates of birth as it does phone numbers', async () => {
    const key = new ScrubKey(TEST_SCRUB_KEY);
    const fakes = await Fakes.load();
    const rule = redactor(['ip', 'address', 'birth', 'phone', 'email'], []);
    const text =
      'From 203.0.113.77 and 2001:db8::1, at 221B Baker Street; born 14/03/1990; call +44 20 7946 0958 or dana@bücher.de.';
    const out = redactText(text, rule, key, fakes);
    for (const piece of ['203.0.113.77', '2001:db8::1', 'Baker', '14/03/1990', '7946', 'bücher'])
      expect(out).not.toContain(piece);
    expect(out).toMatch(
      /^From 10\.\d+\.\d+\.\d+ and fd[0-9a-f:]+, at \d{3}B \w{5} Street; born \d\d\/\d\d\/\d{4}; call \+\d\d \d\d \d{4} \d{4} or \S+@example\.(com|org|net)\.$/,
    );
    expect(redactText(text, rule, key, fakes)).toBe(out);
  });

  it("init suggests rules for the sample game's handle and display name", () => {
    const users: TableInfo = {
      name: 'users',
      schema: 'public',
      table: 'users',
      sql: '"public"."users"',
      from: 'ONLY "public"."users"',
      columns: [
        { name: 'id', type: 'bigint', nullable: false },
        { name: 'handle', type: 'text', nullable: false },
        { name: 'display_name', type: 'text', nullable: false },
      ] as TableInfo['columns'],
      primaryKey: ['id'],
      uniqueKeys: [['handle']],
      foreignKeys: [],
    };
    const catalog: Catalog = { tables: new Map([['users', users]]), serverVersion: '18' };
    expect(suggestScrub(catalog)).toEqual([
      "'users.handle': 'username', // looks like a username",
      "'users.display_name': 'name', // looks like a person's name",
    ]);
  });
});

describe("verify does not trust a fixture's claims (issue 30.3)", () => {
  it('flags a column said to be scrubbed whose values are not what the transform writes, naming the row', () => {
    const fixture = fixtureOf(
      { email: 'text', password_hash: 'text', handle: 'text', ip: 'inet', settings: 'jsonb' },
      [
        {
          email: 'gwen.cole.1a2b@example.org',
          password_hash: '9f86d081884c7d659a2feaa0c55ad015',
          handle: 'Trace.Beatty_a2ec',
          ip: '10.1.2.3',
          settings: { contact: { email: 'x.1a2b@example.com' } },
        },
        {
          email: 'dana@realmail.io',
          password_hash: '$2b$12$Q9mB7cKx2yT4vW6zA8dE1uH3jL5nP7rS9tV1xZ3bD5fG7hJ9kM1oq',
          handle: 'dana_w',
          ip: '203.0.113.77',
          settings: { contact: { email: 'dana@realmail.io' } },
        },
      ],
      {
        't.email': 'email',
        't.password_hash': 'hash',
        't.handle': 'username',
        't.ip': 'ip',
        't.settings:$.contact': 'email',
      },
    );
    const problems = checkClaims(fixture, 'fixtures/f.json');
    expect(problems).toEqual([
      'fixtures/f.json: $.tables.t.rows[1].email: t.email (row id 2): not scrubbed: source.scrub.rules says "email" but the value is not what email writes',
      'fixtures/f.json: $.tables.t.rows[1].password_hash: t.password_hash (row id 2): not scrubbed: source.scrub.rules says "hash" but the value is not what hash writes',
      'fixtures/f.json: $.tables.t.rows[1].handle: t.handle (row id 2): not scrubbed: source.scrub.rules says "username" but the value is not what username writes',
      'fixtures/f.json: $.tables.t.rows[1].ip: t.ip (row id 2): not scrubbed: source.scrub.rules says "ip" but the value is not what ip writes',
      'fixtures/f.json: $.tables.t.rows[1].settings: t.settings:$.contact (row id 2): not scrubbed: source.scrub.rules says "email" but the value is not what email writes',
    ]);
    expect(problems.join('\n')).not.toMatch(/dana|realmail|\$2b|203\.0/);
    const clean = structuredClone(fixture);
    clean.tables.t!.rows.pop();
    expect(checkClaims(clean, 'fixtures/f.json')).toEqual([]);
  });

  it('flags a fixture captured before scrubbed values were replaced everywhere', () => {
    const old = fixtureOf({ handle: 'text' }, [], { 't.handle': 'username', 't.id2': 'keep' });
    expect(checkEverywhereMarker(old, 'fixtures/old.json')).toEqual([
      "fixtures/old.json: $.source.scrub: captured before values scrubbed in t.handle were also replaced in the fixture's other text: recapture it, or run turnkit verify --database to look for them",
    ]);
    const marked = structuredClone(old);
    marked.source.scrub!.everywhere = [];
    expect(checkEverywhereMarker(marked, 'fixtures/old.json')).toEqual([]);
  });
});

describe('scrub keys worth guessing (issue 30.5)', () => {
  const source = {
    scrub: { 'users.email': 'email' as const },
    scrubKeyEnv: 'TURNKIT_SCRUB_KEY',
    where: 'c',
    json: false,
  };
  const refusal = async (key: string): Promise<string> =>
    Scrubber.prepare(source, { key }).then(
      () => 'accepted',
      (error: Error) => error.message,
    );

  it('refuses a repeated character, a repeated piece, dictionary words and short hex, never printing the key', async () => {
    expect(await refusal('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).toBe(
      'TURNKIT_SCRUB_KEY: the scrub key is too easy to guess (one character repeated: about 0 bits, at least 128 needed); use a long random secret, for example `openssl rand -hex 32`',
    );
    expect(await refusal('passwordpasswordpassword')).toMatch(
      /\(one piece repeated: about 16 bits, at least 128 needed\)/,
    );
    expect(await refusal('correcthorsebatterystaple')).toMatch(
      /\(dictionary words: about 64 bits, at least 128 needed\)/,
    );
    expect(await refusal('correct horse battery staple')).toMatch(/\(dictionary words: about 81 bits/);
    expect(await refusal('f3a9c2e1d4b5a697887766554433221')).toMatch(/\(too short: about 124 bits/);
    for (const key of ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'correcthorsebatterystaple'])
      expect(await refusal(key)).not.toContain(key);
  });

  it('accepts openssl rand -hex 32 and -base64 16 keys, the test key and the demo key', async () => {
    expect(await refusal('9b2f8e4a1c7d3e6f0a5b8c2d4e6f8a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f')).toBe('accepted');
    expect(await refusal('f3a9c2e1d4b5a6978877665544332211')).toBe('accepted');
    expect(await refusal('xK9mQ2vL8pR4tY7wB3nF6h==')).toBe('accepted');
    expect(await refusal(TEST_SCRUB_KEY)).toBe('accepted');
    expect(await refusal(DEMO_SCRUB_KEY)).toBe('accepted');
    expect((await keyStrength('9b2f8e4a1c7d3e6f0a5b8c2d4e6f8a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f')).bits).toBe(256);
  });
});
