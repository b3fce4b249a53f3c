import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { byteStream, columnShape, freshBits, freshLike } from '../../src/scratch/remap/key-shape.js';

const fresh = (old: string, column: string[] = [old], seed = 'scratch-1/0'): string =>
  freshLike(old, columnShape(column), seed);

describe('fresh keys of the shape of client-made ones', () => {
  it('keeps the shape of a cuid, a cuid2, a nanoid, a ULID, a uuid in text and a prefixed id', () => {
    expect(fresh('clx9k2m3n0000abcdwxyz1234')).toMatch(/^c[a-z0-9]{24}$/);
    expect(fresh('tz4a98xxat96iws9zmbrgj3a')).toMatch(/^[a-z][a-z0-9]{23}$/);
    const nano = fresh('V1StGXR8_Z5jdHi6B-myT');
    expect(nano).toHaveLength(21);
    expect(nano[8]).toBe('_');
    expect(nano[17]).toBe('-');
    expect(fresh('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
    expect(fresh('3f2a9c1e-7b4d-4e2f-9a8b-1c2d3e4f5a6b')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(fresh('usr_2x8Kq9LmZ')).toMatch(/^usr_[0-9][a-z][0-9][A-Z][a-z][0-9][A-Z][a-z][A-Z]$/);
    expect(fresh('0f3a9b2c1d')).toMatch(/^[0-9a-f]{10}$/);
  });

  it('is the same for one campaign and another for the next, and never the old value', () => {
    const old = 'clx9k2m3n0000abcdwxyz1234';
    expect(fresh(old, [old], 'scratch-a/0')).toBe(fresh(old, [old], 'scratch-a/0'));
    expect(fresh(old, [old], 'scratch-a/0')).not.toBe(fresh(old, [old], 'scratch-b/0'));
    expect(fresh(old)).not.toBe(old);
  });

  it("keeps to a code alphabet once enough codes show it, and counts a short code's bits", () => {
    const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
    const codes = Array.from({ length: 60 }, (_, i) =>
      Array.from({ length: 6 }, (_, j) => alphabet[(i * 7 + j * 5) % alphabet.length]).join(''),
    );
    const shape = columnShape(codes);
    expect(shape.alphabets.upper).toBe(alphabet);
    for (let i = 0; i < 50; i++) expect(freshLike(codes[0]!, shape, `s${i}`)).toMatch(/^[A-HJ-NP-Z]{6}$/);
    expect(freshBits('K7QMZD', columnShape(['K7QMZD']))).toBeLessThan(64);
    expect(freshBits('clx9k2m3n0000abcdwxyz1234', columnShape(['clx9k2m3n0000abcdwxyz1234']))).toBeGreaterThan(90);
  });

  it('draws the same characters from the same stream as it always did (one campaign, one copy, whatever the version)', () => {
    const olds = [
      'clx9k2m3n0000abcdwxyz1234',
      'tz4a98xxat96iws9zmbrgj3a',
      'V1StGXR8_Z5jdHi6B-myT',
      'usr_2x8Kq9LmZ',
      '0f3a9b2c1d',
      'K7QMZD',
      'a-b.c/d 🎲 é',
      '3f2a9c1e-7b4d-4e2f-9a8b-1c2d3e4f5a6b',
      '01ARZ3NDEKTSV4RRFFQ69G5FAV',
      'DEADbeef12',
    ];
    const codes = Array.from({ length: 60 }, (_, i) => 'ABCDEFGHJKLMNPQRSTUVWXYZ'.slice(i % 18, (i % 18) + 6));
    const shapes = [columnShape(olds), columnShape(['0f3a9b2c1d', 'abcdef0123']), columnShape(codes)];
    const out = shapes.flatMap((shape, k) => {
      const bytes = byteStream(`scratch-golden/${k}`);
      return olds.map((old) => freshLike(old, shape, bytes));
    });
    // Written by the version before freshLike read character codes instead of matching each character.
    expect(out.slice(0, 10)).toEqual([
      'cuu0t9o0g2909qwkmeevl3610',
      'xv5n95umtk93pbq7suvhmz3u',
      'V1StGXR8_J9ymGv3S-fbN',
      'usr_1v3Rf2QjO',
      '8l2v7q5e1w',
      'V2AZJC',
      'a-h.y/c 🎲 é',
      '56cbf7c4-d4d6-4e4b-809e-839ef575d209',
      '62JB2NB6SEWPBYMK6YC4H2041H',
      'AYTUlohr41',
    ]);
    expect(createHash('sha256').update(out.join('\n')).digest('hex')).toBe(
      '933755c3f952e5feb18dddcce31666f07ff0fcb58cf326e1a1320a30a243f83e',
    );
  });
});
