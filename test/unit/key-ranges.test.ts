import { describe, expect, it } from 'vitest';
import { packKeys, unpackKeys } from '../../src/scratch/remap/key-ranges.js';

describe('packKeys', () => {
  it('packs runs of consecutive integers, keeps other keys, and unpacks to the same set', () => {
    const keys = [
      '7',
      '3',
      '4',
      '5',
      '9007199254740993',
      '9007199254740994',
      'b1f4c0de-0000-4000-8000-000000000001',
      '["1","2"]',
      '-1',
      '0',
    ];
    const packed = packKeys(keys);
    expect(packed).toEqual([
      'b1f4c0de-0000-4000-8000-000000000001',
      '["1","2"]',
      ['-1', '0'],
      ['3', '5'],
      '7',
      ['9007199254740993', '9007199254740994'],
    ]);
    expect(unpackKeys(packed).sort()).toEqual([...keys].sort());
  });

  it('treats numbers with leading zeros as text (they are not the same key as the number)', () => {
    expect(packKeys(['007', '8'])).toEqual(['007', '8']);
  });
});
