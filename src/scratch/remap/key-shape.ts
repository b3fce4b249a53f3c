import { createCipheriv, createHash } from 'node:crypto';

// Client-made ids keep their shape in a scratch copy, because the game's code may check it (a cuid validator, a
// `usr_` prefix, a ULID parser, a six-letter join code typed by players): the new value has the old one's length,
// prefix and, position by position, a character of the same class drawn from the alphabet the column uses.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const CUID1 = /^c[a-z0-9]{24}$/;
const PREFIX = /^[A-Za-z][A-Za-z0-9]*[_-]/;
const HEX = '0123456789abcdef';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CLASSES = {
  digit: '0123456789',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
} as const;
type CharClass = keyof typeof CLASSES;

/** What a column's values have in common: the alphabet of each character class, and whether all are lowercase hex. */
export interface ColumnShape {
  alphabets: Record<CharClass, string>;
  hex: boolean;
}

/**
 * Learns a column's alphabet from its captured values. A class the column uses sparingly (a join code alphabet
 * without I, O, 0 and 1) keeps to the characters seen, once enough of them were seen to tell; otherwise the whole
 * class is used, so a single captured id does not shrink the space of new ones to its own few characters.
 */
export function columnShape(values: readonly string[]): ColumnShape {
  const seen: Record<CharClass, Set<string>> = { digit: new Set(), lower: new Set(), upper: new Set() };
  let hex = values.length > 0;
  let chars = 0;
  for (const value of values) {
    const body = bodyOf(value);
    if (!/^[0-9a-f]+$/.test(body) || body.length < 8) hex = false;
    for (const char of body) {
      const kind = classOf(char);
      if (kind) {
        seen[kind].add(char);
        chars++;
      }
    }
  }
  // Enough characters seen that a missing letter is a choice of the alphabet, not chance (about 8 per letter).
  const learned = (kind: CharClass): string => {
    const full = CLASSES[kind];
    const set = seen[kind];
    return set.size >= full.length / 2 && chars >= 8 * full.length
      ? [...full].filter((c) => set.has(c)).join('')
      : full;
  };
  return { alphabets: { digit: learned('digit'), lower: learned('lower'), upper: learned('upper') }, hex };
}

/** Where fresh values take their randomness from: a reproducible stream of bytes. */
export interface ByteSource {
  next(): number;
}

/**
 * A fresh value shaped like `old`, its characters drawn from `bytes` (see byteStream: one stream per scratch
 * campaign and column, so one campaign's copy is the same however often it is computed, and two campaigns'
 * copies differ); a string `seed` makes a stream of its own.
 */
export function freshLike(old: string, shape: ColumnShape, seed: string | ByteSource): string {
  const bytes = typeof seed === 'string' ? byteStream(seed) : seed;
  if (UUID.test(old)) {
    const hex = [...old].map((char) => (char === '-' ? '-' : HEX[bytes.next() % 16]!));
    // Version 4, variant 10: a uuid a strict parser accepts.
    hex[14] = '4';
    hex[19] = HEX[8 + (bytes.next() % 4)]!;
    const text = hex.join('');
    return old === old.toUpperCase() ? text.toUpperCase() : text;
  }
  if (ULID.test(old))
    return (
      // The first character of a ULID encodes only 3 bits of time.
      CROCKFORD[bytes.next() % 8]! + Array.from({ length: 25 }, () => CROCKFORD[bytes.next() % 32]!).join('')
    );
  const prefix = prefixOf(old);
  const hex = shape.hex;
  let out = prefix;
  // Character codes, not regular expressions, per character: 5,000 cuids are 120,000 of them per seed.
  for (let i = prefix.length; i < old.length; i++) {
    const code = old.charCodeAt(i);
    if (hex && ((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) out += HEX[bytes.next() % 16];
    else {
      const alphabet =
        code >= 48 && code <= 57
          ? shape.alphabets.digit
          : code >= 97 && code <= 122
            ? shape.alphabets.lower
            : code >= 65 && code <= 90
              ? shape.alphabets.upper
              : undefined;
      // Separators and other marks stay where they are.
      out += alphabet === undefined ? old[i] : alphabet[bytes.next() % alphabet.length];
    }
  }
  return out;
}

/** Bits of freedom a fresh value shaped like `old` has: short codes need a look at the live rows, cuids do not. */
export function freshBits(old: string, shape: ColumnShape): number {
  if (UUID.test(old)) return 122;
  if (ULID.test(old)) return 128;
  const prefix = prefixOf(old);
  let bits = 0;
  for (const char of old.slice(prefix.length)) {
    const kind = classOf(char);
    if (shape.hex && /[0-9a-f]/.test(char)) bits += 4;
    else if (kind) bits += Math.log2(shape.alphabets[kind].length);
  }
  return bits;
}

// What a fresh value keeps as it is: a cuid's `c`, or a prefix like `usr_`.
function prefixOf(value: string): string {
  return CUID1.test(value) ? 'c' : (PREFIX.exec(value)?.[0] ?? '');
}

function bodyOf(value: string): string {
  return value.slice((PREFIX.exec(value)?.[0] ?? '').length);
}

function classOf(char: string): CharClass | undefined {
  if (char >= '0' && char <= '9') return 'digit';
  if (char >= 'a' && char <= 'z') return 'lower';
  if (char >= 'A' && char <= 'Z') return 'upper';
  return undefined;
}

/**
 * Pseudo-random bytes from AES-256-CTR keyed by SHA-256 of `seed`: reproducible, and at memory speed (an HMAC per
 * value cost a seed of 5,000 turns about a tenth of its time).
 */
export function byteStream(seed: string): ByteSource {
  const cipher = createCipheriv('aes-256-ctr', createHash('sha256').update(seed).digest(), Buffer.alloc(16));
  const zeros = Buffer.alloc(4096);
  let buffer = Buffer.alloc(0);
  let at = 0;
  return {
    next(): number {
      if (at >= buffer.length) {
        buffer = cipher.update(zeros);
        at = 0;
      }
      return buffer[at++]!;
    },
  };
}
