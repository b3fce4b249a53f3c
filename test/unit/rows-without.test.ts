import { describe, expect, it } from 'vitest';
import type { RawRow } from '../../src/fixture/capture/row-query.js';
import { RowsWithout } from '../../src/fixture/turns/rows-without.js';

describe('a slice of collected rows read through the cut keys', () => {
  const all = new Map<string, RawRow>(Array.from({ length: 20 }, (_, i) => [String(i), [String(i), `v${i}`]]));
  const removed = new Set(['3', '0', '19', 'not collected']);
  const copy = new Map([...all].filter(([key]) => !removed.has(key)));
  const view = new RowsWithout(all, removed);

  it('holds what a filtered copy would, in the same order', () => {
    expect(view.size).toBe(copy.size);
    expect([...view]).toEqual([...copy]);
    expect([...view.keys()]).toEqual([...copy.keys()]);
    expect([...view.values()]).toEqual([...copy.values()]);
    expect([...view.entries()]).toEqual([...copy.entries()]);
    expect(new Map(view)).toEqual(copy);
    const seen: string[] = [];
    view.forEach((_row, key) => seen.push(key));
    expect(seen).toEqual([...copy.keys()]);
    for (const key of [...all.keys(), 'not collected'])
      expect([view.has(key), view.get(key)]).toEqual([copy.has(key), copy.get(key)]);
  });

  it('refuses writes: nothing may change a slice through it', () => {
    expect(() => view.set('1', [])).toThrow(/read-only/);
    expect(() => view.delete('1')).toThrow(/read-only/);
    expect(() => view.clear()).toThrow(/read-only/);
    expect(all.size).toBe(20);
  });
});
