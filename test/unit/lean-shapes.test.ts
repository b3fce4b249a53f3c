import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { manifestSchema } from '../../src/run-dir/manifest.js';
import { leanCallSpend, leanManifest, leanScreenRow, leanSpend } from '../../src/run-dir/lean-shapes.js';
import { callSpendSchema, spendSchema } from '../../src/run-dir/spend-schema.js';
import { screenRowSchema } from '../../src/run-dir/screens-schema.js';
import type { Shape } from '../../src/util/lean-shape.js';

// The lean shapes read a run's files without zod (turnkit report's start). They may refuse what the schema accepts
// (the reader then asks the schema), never the other way round: what a lean shape accepts, the schema must accept and
// return unchanged. Held here on a rich value of each and on every one-step break of it.

const spend = { calls: 3, inputTokens: 120, outputTokens: 40, cost: 0.25, unpriced: 0 };
const named = { name: 'deck', applies: ['meridian-*'] };

/** A manifest with every optional part of the schema filled in. */
const manifest = {
  format: 'turnkit.run/1',
  status: 'complete',
  startedAt: '2026-12-02T17:01:00.723Z',
  finishedAt: '2026-12-02T17:01:05.000Z',
  turnkit: '0.1.0',
  node: 'v20.20.2',
  git: { commit: 'abc123', dirty: false },
  machine: { os: 'Linux 6', arch: 'x64', cpu: 'EPYC', cpus: 2 },
  sutFiles: [{ path: 'sut.mjs', sha256: 'ff' }],
  models: { sut: ['m-1'], judges: { model: ['m-2'] } },
  question: {
    id: 'places',
    text: 'Where?',
    file: { path: 'q.yaml', sha256: 'aa' },
    target: 0.88,
    reps: 10,
    errors: 'fail',
  },
  rubric: { path: 'rubric.md', version: '1', sha256: 'bb' },
  caseFileTemplate: { path: 'case.md', sha256: 'cc' },
  checks: {
    mustContain: ['deck 2'],
    mustNotContain: { ...named, terms: ['deck 3'] },
    matches: ['^The', { pattern: 'deck \\d', flags: 'i', ...named }],
    mustNotMatch: [],
    effects: { inserted: [{ table: 'turns', nonEmpty: ['narration'], ...named }], noOutsideChanges: named },
    state: {
      volatile: ['played_at', 'turns.id'],
      tables: {
        turns: {
          inserted: 1,
          updated: { min: 0, max: 2 },
          rows: [
            { key: { id: '5' }, narration: { matches: 'deck' }, turn_number: 23, mood: { oneOf: ['calm', null] } },
            { note: { nonEmpty: true }, done: false },
          ],
          ...named,
        },
        decks: 'unchanged',
      },
      onlyChanges: named,
    },
    facts: [
      { fact: 'mess_hall_deck', mustState: true, mustNotContradict: true, ...named },
      { fact: 'captain', mustState: false, mustNotContradict: true },
    ],
  },
  tools: {
    allowed: { name: 'allowed', tools: ['move', 'look'] },
    required: [
      {
        name: 'moves',
        tool: 'move',
        arguments: { to: 'deck 2' },
        match: 'exact',
        patterns: { to: { pattern: 'deck', flags: 'u' }, from: 'x' },
        error: false,
        atLeast: 1,
        atMost: 3,
      },
      { tool: 'look', match: 'subset', exactly: 1 },
    ],
    forbidden: [{ tool: 'delete', match: 'subset' }],
    order: [{ name: 'look-first', tools: ['look', 'move'] }],
    effects: [{ tool: 'move', table: 'positions', kind: 'updated', rows: 'any', required: false }],
  },
  hidden: [{ name: 'secrets', table: 'secrets', where: { is_secret: true, tier: null }, columns: ['name'], words: 5 }],
  rollout: {
    turns: 4,
    players: 'recorded',
    stopOn: 'fail',
    transcriptChecks: {
      mustContain: [],
      mustNotContain: [],
      matches: [],
      mustNotMatch: [],
      effects: { inserted: [], noOutsideChanges: true },
    },
  },
  shard: { index: 1, count: 2 },
  fixtures: [
    {
      name: 'meridian-turn-23-deck-fixed',
      file: { path: 'f.json', sha256: 'dd' },
      tag: 'heldout',
      skip: ['deck'],
      bases: [{ path: 'b.json', sha256: 'ee' }],
      upgraded: { path: 'u.json', sha256: '11', migrations: ['0002.sql'] },
    },
  ],
  sut: { type: 'command', command: ['node', 'sut.mjs'], timeout: 130 },
  database: { backend: 'embedded', serverVersion: '18.6', strategy: 'remap' },
  concurrency: 2,
  order: [{ fixture: 'meridian-turn-23-deck-fixed', rep: 1, attempt: 1 }],
  resumed: [
    {
      at: '2026-12-02T18:00:00.000Z',
      reps: 4,
      concurrency: 1,
      strategy: 'remap',
      database: { backend: 'postgres', serverVersion: '15.4' },
      machine: { os: 'Linux 6', arch: 'x64', cpu: 'EPYC', cpus: 4 },
      sutFiles: 'changed',
    },
  ],
  spend: { sut: spend },
  merged: [
    {
      dir: 'shard-1',
      shard: { index: 1, count: 2 },
      startedAt: '2026-12-02T17:01:00.723Z',
      finishedAt: '2026-12-02T17:02:00.723Z',
      database: { backend: 'embedded', serverVersion: '18.6', strategy: 'remap' },
      machine: { os: 'Linux 6', arch: 'x64', cpu: 'EPYC', cpus: 2 },
    },
  ],
};

const screenRow = {
  fixture: 'meridian-turn-23',
  rep: 2,
  mark: 'fail',
  screens: [{ screen: 'must-contain', mark: 'unscored', reason: 'does not contain "deck 2"' }],
};

// Values a part may be broken into: wrong types, empties, edges of numbers and strings, regex and name rules.
const REPLACEMENTS: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 53,
  1,
  2,
  51,
  '',
  ' ',
  ' padded ',
  'a,b',
  'x'.repeat(81),
  '(',
  'iu',
  'g',
  'bad name!',
  'subset',
  'inserted',
  [],
  ['a'],
  [''],
  {},
  { unknown: 1 },
];

type Path = (string | number)[];

/** Every path to a part of a JSON value (objects' keys and arrays' items), the value's own root included. */
function paths(value: unknown, at: Path = []): Path[] {
  const found: Path[] = [at];
  if (Array.isArray(value)) value.forEach((item, i) => found.push(...paths(item, [...at, i])));
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) found.push(...paths(item, [...at, key]));
  return found;
}

/** The value with the part at `path` replaced (undefined: deleted), or with an unknown key added to an object. */
function broken(value: unknown, path: Path, replacement: unknown, addKey = false): unknown {
  const copy = structuredClone(value);
  if (path.length === 0) return addKey ? { ...(copy as object), extra: 1 } : replacement;
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (addKey) (parent[last] as Record<string, unknown>).extra = 1;
  else if (replacement === undefined && !Array.isArray(parent)) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** Every one-step break of a value: each part deleted or replaced by each replacement, each object given a key. */
function breaks(value: unknown): unknown[] {
  const out: unknown[] = [];
  for (const path of paths(value)) {
    for (const replacement of REPLACEMENTS) out.push(broken(value, path, replacement));
    const part = path.reduce<unknown>((at, key) => (at as Record<string | number, unknown>)[key], value);
    if (part && typeof part === 'object' && !Array.isArray(part)) out.push(broken(value, path, undefined, true));
  }
  return out;
}

/** Where the lean shape accepts what the schema refuses, or accepts a value the schema would return changed. */
function disagreements(lean: Shape, schema: z.ZodType, values: unknown[]): unknown[] {
  return values.filter((value) => {
    if (!lean(value)) return false;
    const parsed = schema.safeParse(value);
    return !parsed.success || !isDeepStrictEqual(parsed.data, value);
  });
}

describe('lean shapes: what they accept, their schemas accept unchanged', () => {
  const cases: [string, Shape, z.ZodType, unknown][] = [
    ['manifest', leanManifest, manifestSchema, manifest],
    ['spend', leanSpend, spendSchema, spend],
    ['call spend', leanCallSpend, callSpendSchema, { inputTokens: 3, outputTokens: 0, cost: null }],
    ['screens line', leanScreenRow, screenRowSchema, screenRow],
  ];

  it.each(cases)('%s: the whole value passes both', (_name, lean, schema, value) => {
    expect(schema.parse(value)).toEqual(value);
    expect(lean(value)).toBe(true);
  });

  it.each(cases)('%s: no one-step break is accepted by the lean shape alone', (_name, lean, schema, value) => {
    const values = breaks(value);
    expect(values.length).toBeGreaterThan(100);
    expect(disagreements(lean, schema, values)).toEqual([]);
  });

  it.each(cases.slice(1))(
    '%s: the lean shape accepts exactly what the schema accepts',
    (_name, lean, schema, value) => {
      // The spends' and the screens line's readers take the lean shape's word alone (no schema to fall back to).
      for (const candidate of breaks(value))
        expect(lean(candidate), JSON.stringify(candidate)).toBe(schema.safeParse(candidate).success);
    },
  );

  it('the test finds a lean shape that accepts too much', () => {
    const loose: Shape = (value) => typeof value === 'object' && value !== null;
    expect(disagreements(loose, spendSchema, breaks(spend)).length).toBeGreaterThan(0);
  });

  it('a manifest turnkit writes passes the lean shape (the fast path is the one taken)', () => {
    const { checks, tools, hidden, rollout, ...plain } = manifest;
    expect(leanManifest(plain)).toBe(true);
    expect(leanManifest({ ...plain, checks })).toBe(true);
    // Absent defaults are the schema's to fill in: the lean shape asks it.
    expect(leanManifest({ ...plain, checks: { mustContain: ['deck 2'] } })).toBe(false);
    expect(manifestSchema.safeParse({ ...plain, checks: { mustContain: ['deck 2'] } }).success).toBe(true);
    void tools;
    void hidden;
    void rollout;
  });
});
