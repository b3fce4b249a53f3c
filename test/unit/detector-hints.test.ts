import { describe, expect, it } from 'vitest';
import {
  ADDRESS_HINT,
  ADDRESS_IN_TEXT,
  BIRTH_HINT,
  BIRTH_IN_TEXT,
  IP_CANDIDATES,
  IPV4_HINT,
  matches,
  PHONE_HINT,
  PHONE_IN_TEXT,
  twoColons,
} from '../../src/fixture/scrub/text-patterns.js';
import { mulberry32 } from '../../src/util/seeded-random.js';

// The detector tests a cheap hint before each costly pattern (capture ran every pattern over every text value):
// the hint must hold wherever the pattern matches, or a finding would be lost.
const TOKENS = [
  'born',
  'BORN',
  'Born',
  'dob',
  'D.O.B.',
  'd.ob',
  'Birthday',
  'birth date',
  'date of birth',
  'BIRTH',
  'ſ',
  'K',
  ' ',
  ' ',
  ' ',
  '\n',
  ',',
  '.',
  ':',
  '::',
  '-',
  '/',
  '(',
  ')',
  '+',
  '0',
  '1',
  '14',
  '03',
  '1990',
  '2026',
  '221B',
  '123',
  '4567',
  '555',
  '7946',
  '0958',
  '+44',
  '07700',
  '900123',
  '203',
  '113',
  '77',
  '2001',
  'db8',
  '85a3',
  'fe80',
  'Baker',
  'Street',
  'St',
  'Rd',
  'Dr',
  'Ave',
  'Hauptstraße',
  'Gartenweg',
  'Ring',
  'str.',
  'Platz',
  'March',
  'Mar',
  'th',
  'the',
  'Reyes',
  'ü',
  '\u0130',
  '\u212a',
];

const corpus = (() => {
  const random = mulberry32(20261202);
  const texts = [
    'I connect from 203.0.113.77 tonight.',
    'My box is at 2001:db8:85a3::8a2e:370:7334, ping it.',
    'Call me on +44 20 7946 0958.',
    'Text +4915112345678 when you land.',
    'My number is (555) 123-4567.',
    'Ring 020 7946 0958 after six.',
    'Ring 07700 900123 after six.',
    'Send it to 221B Baker Street, London.',
    'Ich wohne in der Hauptstraße 5 in Köln.',
    'I was born on 14/03/1990 in Leeds.',
    'DOB: March 14, 1990',
    'At 19:30:00 on 2026-03-14 the lift reaches deck 3.',
  ];
  for (let i = 0; i < 20_000; i++) {
    const length = 1 + Math.floor(random() * 12);
    texts.push(Array.from({ length }, () => TOKENS[Math.floor(random() * TOKENS.length)]).join(''));
  }
  // Shaped like what the address and IPv4 patterns look for, with random parts, so that each matches often.
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  for (let i = 0; i < 2_000; i++) {
    const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(['Baker', 'Old', 'Ünter', "O'Neil"]));
    const type = pick(['Street', 'St', 'Rd', 'Dr', 'Ave', 'Way', 'street', 'Stre']);
    texts.push(
      `${pick(['', 'at ', '#'])}${Math.floor(random() * 3000)}${pick(['', 'B', 'b'])}${pick([' ', ', ', '\n'])}${words.join(' ')} ${type}${pick(['', '.', 's', ' 5'])}`,
    );
    texts.push(
      `${pick(['', 'Am ', 'x'])}${pick(['Haupt', 'Garten', 'Ring'])}${pick(['straße', 'strasse', 'str.', 'weg', 'allee', 'platz', 'gasse', 'e'])}${pick([' ', '  ', ''])}${Math.floor(random() * 200)}${pick(['', 'a', 'x1'])}`,
    );
    const quad = Array.from({ length: pick([3, 4, 5]) }, () => String(Math.floor(random() * pick([10, 400])))).join(
      pick(['.', '.', ':']),
    );
    texts.push(`${pick(['', 'from ', 'v', '.'])}${quad}${pick(['', '/24', '.', ' ok', 'a'])}`);
  }
  return texts;
})();

describe('the detector hints (each implied by its pattern)', () => {
  it.each([
    ['phone', PHONE_IN_TEXT, (text: string) => PHONE_HINT.test(text)],
    ['address', ADDRESS_IN_TEXT, (text: string) => ADDRESS_HINT.test(text)],
    ['birth', BIRTH_IN_TEXT, (text: string) => BIRTH_HINT.test(text)],
    ['IPv4', IP_CANDIDATES.v4, (text: string) => IPV4_HINT.test(text)],
    ['IPv6', IP_CANDIDATES.v6, twoColons],
  ] as const)('%s: no text matches the pattern without its hint', (_, pattern, hint) => {
    const matched = corpus.filter((text) => matches(pattern, text));
    // The corpus exercises the pattern: a hint tested on no match would prove nothing.
    expect(matched.length).toBeGreaterThan(20);
    expect(matched.filter((text) => !hint(text))).toEqual([]);
  });
});
