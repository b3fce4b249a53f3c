import { describe, expect, it } from 'vitest';
import { ScrubKey } from '../../src/fixture/scrub/scrub-key.js';
import { columnShape, namePartOf } from '../../src/fixture/scrub/column-shape.js';
import { hashValue } from '../../src/fixture/scrub/hash-value.js';
import { fakeIp } from '../../src/fixture/scrub/fake-ip.js';
import { Fakes } from '../../src/fixture/scrub/fake-values.js';
import { redactor, redactText } from '../../src/fixture/scrub/redact-text.js';
import { kindByName, nameTokens } from '../../src/fixture/scrub/name-detector.js';
import { kindByValue } from '../../src/fixture/scrub/value-detector.js';
import { parseTransform, scrubRuleEntries } from '../../src/config/scrub-schema.js';
import { configSchema } from '../../src/config/schema.js';
import { parseJsonPath, pathSelects, replaceAtPath } from '../../src/util/json/json-path.js';

const key = new ScrubKey('unit-test-scrub-key: not a secret');
const other = new ScrubKey('another unit-test key, not a secret');
const fakes = await Fakes.load();

describe('keyed hashes shaped to the column', () => {
  it('fits varchar(n), fills char(n), and gives the type of integer, uuid, bytea and inet columns', () => {
    expect(hashValue(key, 'secret', columnShape('character varying(8)'))).toMatch(/^[0-9a-f]{8}$/);
    expect(hashValue(key, 'secret', columnShape('character(40)'))).toMatch(/^[0-9a-f]{40}$/);
    expect(hashValue(key, 'secret', columnShape('text'))).toMatch(/^[0-9a-f]{32}$/);
    expect(hashValue(key, 'secret', columnShape('uuid'))).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const small = hashValue(key, 5551234, columnShape('smallint')) as number;
    expect(Number.isInteger(small) && small >= 0 && small <= 32767).toBe(true);
    expect(BigInt(hashValue(key, '1', columnShape('bigint')) as string) < 2n ** 63n).toBe(true);
    expect(String(hashValue(key, '12.5', columnShape('numeric(6,2)')))).toMatch(/^\d{1,4}$/);
    expect(
      Buffer.from((hashValue(key, { $bytea: 'AAE=' }, columnShape('bytea')) as { $bytea: string }).$bytea, 'base64'),
    ).toHaveLength(32);
    expect(hashValue(key, '08:00:2b:01:02:03', columnShape('macaddr'))).toMatch(/^[0-9a-f]{1}[26ae](:[0-9a-f]{2}){5}$/);
  });

  it('is deterministic for a key and differs between keys and values', () => {
    const shape = columnShape('text');
    expect(hashValue(key, 'a', shape)).toBe(hashValue(key, 'a', shape));
    expect(hashValue(key, 'a', shape)).not.toBe(hashValue(other, 'a', shape));
    expect(hashValue(key, 'a', shape)).not.toBe(hashValue(key, 'b', shape));
    expect(key.fingerprint).toMatch(/^hmac-sha256:[0-9a-f]{16}$/);
    expect(key.fingerprint).not.toBe(other.fingerprint);
  });
});

describe('fake addresses', () => {
  it("keep the family and prefix length, in private ranges, with a cidr's host bits cleared", () => {
    expect(fakeIp(key, '203.0.113.77', 'inet')).toMatch(/^10\.\d{1,3}\.\d{1,3}\.\d{1,3}$/);
    expect(fakeIp(key, '198.51.100.23/24', 'inet')).toMatch(/^10\.\d{1,3}\.\d{1,3}\.\d{1,3}\/24$/);
    expect(fakeIp(key, '198.51.100.0/24', 'cidr')).toMatch(/^10\.\d{1,3}\.\d{1,3}\.0\/24$/);
    expect(fakeIp(key, '2001:db8::1', 'inet')).toMatch(/^fd[0-9a-f]{2}(:[0-9a-f]{1,4}){7}$/);
    expect(fakeIp(key, '2001:db8::/32', 'cidr')).toMatch(/^fd[0-9a-f]{2}:[0-9a-f]{1,4}:0:0:0:0:0:0\/32$/);
  });
});

describe('faker fakes seeded per value', () => {
  it('give one fake per value, another for another key, and the shape a game reads', () => {
    const text = columnShape('text');
    const email = fakes.fake('email', key, 'Ada@Analytical.io', text);
    expect(email).toMatch(/^[a-z0-9._-]+\.[0-9a-f]{4}@example\.(com|org|net)$/);
    expect(fakes.fake('email', key, 'ada@analytical.io', text)).toBe(email);
    expect(fakes.fake('email', other, 'ada@analytical.io', text)).not.toBe(email);
    expect(fakes.fake('name', key, 'Ada Lovelace', text)).toMatch(/^\S+ \S+$/);
    expect(
      fakes.fake('username', key, 'countess_ada', columnShape('character varying(12)')).length,
    ).toBeLessThanOrEqual(12);
    expect(fakes.fake('email', key, 'someone@somewhere.io', columnShape('character varying(24)'))).toMatch(/^.{1,24}$/);
    expect(fakes.fake('email', key, 'someone@somewhere.io', columnShape('character varying(24)'))).toMatch(
      /@example\.(com|org|net)$/,
    );
  });

  it('give a first_name column a given name and a last_name column a family name, one word each', () => {
    const text = columnShape('text');
    const given = fakes.fake('name', key, 'Ada', { ...text, ...namePartOf('first_name') });
    const family = fakes.fake('name', key, 'Lovelace', { ...text, ...namePartOf('lastName') });
    expect(given).toMatch(/^\S+$/);
    expect(family).toMatch(/^\S+$/);
    expect(fakes.fake('name', key, 'Ada', { ...text, ...namePartOf('givenName') })).toBe(given);
    expect(namePartOf('surname')).toEqual({ namePart: 'family' });
    expect(namePartOf('display_name')).toEqual({});
    expect(fakes.fake('name', key, 'Ada Lovelace', { ...text, ...namePartOf('display_name') })).toMatch(/^\S+ \S+$/);
  });

  it('replace every word of a text by a word of its length, keeping spaces, punctuation and capitals', () => {
    const original = 'Dana met Rook at the Spire, at dawn.';
    const fake = fakes.fake('text', key, original, columnShape('text'));
    expect(fake).toHaveLength(original.length);
    expect(fake).not.toBe(original);
    expect(fake.replace(/\p{L}/gu, 'x')).toBe(original.replace(/\p{L}/gu, 'x'));
    expect(fake[0]).toMatch(/\p{Lu}/u);
    expect(fakes.fake('text', key, original, columnShape('text'))).toBe(fake);
  });
});

describe('free-text redaction', () => {
  const rule = redactor(['email', 'names', 'phone'], ['Ada Lovelace', 'Dana']);
  it('replaces emails by their email fake, phone digits, and listed names as whole words in any case', () => {
    const out = redactText(
      'Dana (ada lovelace) writes from ada@analytical.io, call +44 20 7946 0958; Danaë stays. 2026-03-14 14:30',
      rule,
      key,
      fakes,
    );
    expect(out).not.toMatch(/ada@analytical|7946|(?<!\p{L})Dana(?!\p{L})|lovelace/iu);
    expect(out).toContain(fakes.fake('email', key, 'ada@analytical.io', columnShape('text')));
    expect(out).toMatch(/call \+\d\d \d\d \d{4} \d{4};/);
    expect(out).toContain('Danaë stays. 2026-03-14 14:30');
  });
});

describe('the detector', () => {
  it('reads names as words and only where the type can hold the data', () => {
    expect(nameTokens('lastLoginIP')).toEqual(['last', 'login', 'ip']);
    const text = columnShape('text');
    expect(kindByName('password_hash', text)).toBe('secret');
    expect(kindByName('apiKey', text)).toBe('secret');
    expect(kindByName('email_address', text)).toBe('email');
    expect(kindByName('ip_address', text)).toBe('ip');
    expect(kindByName('home_address', text)).toBe('address');
    expect(kindByName('username', text)).toBe('username');
    expect(kindByName('date_of_birth', columnShape('date'))).toBe('birth');
    expect(kindByName('phone', columnShape('bigint'))).toBe('phone');
    // A count of tokens, a ship's name, a login time: nothing personal or secret.
    expect(kindByName('tokens_used', columnShape('bigint'))).toBeUndefined();
    expect(kindByName('ship_name', text)).toBeUndefined();
    expect(kindByName('last_login', columnShape('timestamp with time zone'))).toBeUndefined();
    expect(kindByName('narration', text)).toBeUndefined();
  });

  it('finds credentials and real-looking addresses in text, not reserved example domains', () => {
    expect(kindByValue('Authorization: Bearer abcdefghijklmnop1234')).toEqual({ kind: 'secret', whole: false });
    expect(kindByValue('sk-proj-Zk3QmW8pLr2Tx9Vb4Nc7')).toMatchObject({ kind: 'secret' });
    expect(
      kindByValue('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'),
    ).toMatchObject({ kind: 'secret' });
    expect(kindByValue('-----BEGIN RSA PRIVATE KEY-----\nMIIE')).toMatchObject({ kind: 'secret' });
    expect(kindByValue('ada@analytical.io')).toEqual({ kind: 'email', whole: true });
    expect(kindByValue('write to ada@analytical.io')).toEqual({ kind: 'email', whole: false });
    expect(kindByValue('allan.terry.2093@example.com')).toBeUndefined();
    expect(kindByValue('The skiff is at dock 4; sk-1 is its call sign.')).toBeUndefined();
  });
});

describe('scrub rules in the config', () => {
  it('parses every transform and flattens table maps and JSON paths', () => {
    expect(parseTransform('email')).toEqual({ kind: 'fake', fake: 'email' });
    expect(parseTransform({ constant: 0 })).toEqual({ kind: 'constant', value: 0 });
    expect(parseTransform({ redact: ['phone', 'email'] })).toEqual({
      kind: 'redact',
      redact: ['email', 'phone'],
      names: [],
    });
    expect(parseTransform('emial')).toMatch(/^unknown transform "emial" \(use keep, null, hash, email/);
    expect(parseTransform({ redact: ['names'] })).toBe(
      'redact "names" goes with a non-empty names list, and names with "names"',
    );
    const { rules, issues } = scrubRuleEntries({
      users: { email: 'email' },
      'saga.accounts.email': 'keep',
      'c.settings:$.a[*].token': 'hash',
    });
    expect(issues).toEqual([]);
    expect(rules.map((rule) => [rule.path, rule.target, rule.column, rule.jsonPath?.text])).toEqual([
      [['scrub', 'users', 'email'], 'users', 'email', undefined],
      [['scrub', 'saga.accounts.email'], 'saga.accounts.email', undefined, undefined],
      [['scrub', 'c.settings:$.a[*].token'], 'c.settings', undefined, '$.a[*].token'],
    ]);
  });

  it('reports a bad rule at its place in the config, and defaults the key variable', () => {
    const game = { root: { table: 'c', key: 'id' }, turns: { table: 't', order: 'n', input: ['i'] } };
    const bad = configSchema.safeParse({
      game,
      scrub: { 'users.email': 'emial', users: { name: { redact: [] } }, ids: 'hash' },
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((issue) => [issue.path, issue.message.split(' (')[0]])).toEqual([
      [['scrub', 'users.email'], 'unknown transform "emial"'],
      [['scrub', 'users', 'name'], 'redact takes a list of email, phone, ip, address, birth, names'],
      [['scrub', 'ids'], '"ids" names no column: write "table.column" or table: { column: transform }'],
    ]);
    expect(configSchema.parse({ game }).scrubKeyEnv).toBe('TURNKIT_SCRUB_KEY');
  });
});

describe('JSON paths', () => {
  it('parse, select and replace without touching the input', () => {
    const steps = parseJsonPath("$.players[*]['e-mail']")!;
    const value = { players: [{ 'e-mail': 'a@b.io', n: 1 }, { n: 2 }], other: { 'e-mail': 'x' } };
    expect(replaceAtPath(value, steps, () => 'gone')).toEqual({
      players: [{ 'e-mail': 'gone', n: 1 }, { n: 2 }],
      other: { 'e-mail': 'x' },
    });
    expect(value.players[0]!['e-mail']).toBe('a@b.io');
    expect(replaceAtPath(value, parseJsonPath('$..n')!, (n) => (n as number) * 10)).toMatchObject({
      players: [{ n: 10 }, { n: 20 }],
    });
    expect(pathSelects(parseJsonPath('$..token')!, ['a', 0, 'token'])).toBe(true);
    expect(pathSelects(steps, ['players', 3, 'e-mail'])).toBe(true);
    expect(pathSelects(steps, ['other', 'e-mail'])).toBe(false);
    expect(parseJsonPath('$.a..')).toBeUndefined();
    expect(parseJsonPath('a.b')).toBeUndefined();
  });
});
