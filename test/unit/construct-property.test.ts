import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { applyChanges } from '../../src/fixture/constructed/apply-changes.js';
import { columnChangesOf, type ColumnChange } from '../../src/fixture/constructed/column-change.js';
import { loadFixture, type LoadedFixture } from '../../src/fixture/load-fixture.js';
import { applyPatch } from '../../src/fixture/constructed/patch.js';
import { buildConstructed } from '../../src/fixture/constructed/save-constructed.js';
import { rowsTiedToTurn } from '../../src/fixture/turns/turn-rows.js';
import { rowKey } from '../../src/fixture/row-key.js';
import { valueProblem } from '../../src/fixture/column-values.js';
import { TurnkitError } from '../../src/errors.js';
import { serializeDocument, type Fixture, type FixtureColumn } from '../../src/fixture/format.js';
import { parseFixtureText } from '../../src/fixture/read-fixture.js';
import { SAMPLE_TEXT, deepFreeze, keysFixture, rowById, sha256Of } from '../helpers/construct-fixtures.js';

/** One column of one row that an edit may set. */
interface Field {
  table: string;
  key: string;
  column: string;
}

// The base is frozen for the whole file: any write to it, by any function under test, throws.
const base: Fixture = deepFreeze(parseFixtureText(SAMPLE_TEXT, 'meridian-turn-23.json'));
const snapshot = structuredClone(base);

/** Columns of rows tied to a turn that an edit may change: not keys, not foreign keys, not the turn order. */
function editableFields(fixture: Fixture, turn: number): Field[] {
  const fields: Field[] = [];
  for (const [table, keys] of rowsTiedToTurn(fixture, turn)) {
    const description = fixture.tables[table]!;
    const locked = new Set([...description.primaryKey, ...description.foreignKeys.flatMap((fk) => fk.columns)]);
    if (table === fixture.source.turns.table) locked.add(fixture.source.turns.order);
    for (const key of keys) {
      for (const column of description.columns)
        if (!locked.has(column.name) && column.generated === undefined)
          fields.push({ table, key, column: column.name });
    }
  }
  return fields;
}

const FIELDS_BY_TURN = new Map(Array.from({ length: 22 }, (_, i) => [i + 1, editableFields(base, i + 1)] as const));

/** What `JSON.stringify` and back makes of a value (drops -0 and the like, as a file does). */
const jsonNormal = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** A new value, or "flip": the current value with its type changed and its text kept (1 -> "1", "19" -> 19). */
type NewValue = { flip: true } | { flip: false; value: unknown };

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => `a${String.fromCharCode(code)}b`);
const valueArb: fc.Arbitrary<NewValue> = fc.oneof(
  { arbitrary: fc.constant({ flip: true } as const), weight: 2 },
  {
    arbitrary: fc
      .oneof(
        fc.string(),
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'binary' }),
        loneSurrogate,
        fc.constantFrom('', ' ', '\n', 'null', '1', 1, 0, -1, '0', true, false, null, [], {}, [null], { '1': 1 }, [
          '1',
          1,
        ]),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.jsonValue({ maxDepth: 3 }),
      )
      .map((value) => ({ flip: false, value: jsonNormal(value) }) as const),
    weight: 8,
  },
);

function flipped(value: unknown): unknown {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (value === null) return 'null';
  return JSON.stringify(value);
}

/** The column a field names, for the value check every recorded change passes (NOT NULL, the column's JSON type). */
function columnOf(field: Field): FixtureColumn {
  return base.tables[field.table]!.columns.find((column) => column.name === field.column)!;
}

/** Values for one field that its column can hold: random JSON for jsonb, typed candidates for the rest. */
function valueFor(field: Field): fc.Arbitrary<NewValue> {
  const column = columnOf(field);
  const current = findRowByKey(base, field.table, field.key)[field.column];
  const typed = fc
    .oneof(
      valueArb,
      fc.integer().map((value) => ({ flip: false, value }) as const),
      fc.bigInt().map((value) => ({ flip: false, value: String(value) }) as const),
      fc.array(fc.integer()).map((value) => ({ flip: false, value }) as const),
      fc.array(fc.string()).map((value) => ({ flip: false, value }) as const),
    )
    .filter((candidate) => valueProblem(column, candidate.flip ? flipped(current) : candidate.value) === undefined);
  // Every column keeps its own value as a fallback, so the filter always has something to pass.
  return fc.oneof(
    { arbitrary: typed, weight: 9 },
    { arbitrary: fc.constant({ flip: false, value: current } as const), weight: 1 },
  );
}

const editArb = fc.integer({ min: 1, max: 22 }).chain((turn) =>
  fc.record({
    turn: fc.constant(turn),
    edits: fc.uniqueArray(
      fc
        .constantFrom(...FIELDS_BY_TURN.get(turn)!)
        .chain((field) => fc.record({ field: fc.constant(field), value: valueFor(field) })),
      {
        minLength: 1,
        maxLength: 5,
        selector: (edit) => `${edit.field.table}\u0000${edit.field.key}\u0000${edit.field.column}`,
      },
    ),
  }),
);

function findRowByKey(fixture: Fixture, table: string, key: string): Record<string, unknown> {
  const description = fixture.tables[table]!;
  return description.rows.find((row) => rowKey(row, description.primaryKey) === key)!;
}

const fieldName = (change: Pick<ColumnChange, 'table' | 'row' | 'column'>): string =>
  `${change.table}/${change.row}/${change.column}`;

describe('materialize(construct(base, edited)) is edited, for edits confined to one turn', () => {
  let dir: string;
  let loaded: LoadedFixture;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-construct-prop-'));
    await writeFile(join(dir, 'base.json'), SAMPLE_TEXT);
    loaded = { fixture: base, path: join(dir, 'base.json'), shown: 'base.json', sha256: sha256Of(SAMPLE_TEXT) };
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds fields to edit in every kept turn, and world_facts rows in turns 9 and 18 only', () => {
    for (const fields of FIELDS_BY_TURN.values()) expect(fields.length).toBeGreaterThan(0);
    const factTurns = [...FIELDS_BY_TURN]
      .filter(([, fields]) => fields.some((field) => field.table === 'world_facts'))
      .map(([turn]) => turn);
    expect(factTurns).toEqual([9, 18]);
  });

  it('round-trips through the changeset in memory and through the files', async () => {
    await fc.assert(
      fc.asyncProperty(editArb, async ({ turn, edits }) => {
        const edited = structuredClone(base) as Fixture;
        const expected = new Map<string, { oldValue: unknown; value: unknown }>();
        for (const { field, value } of edits) {
          const row = findRowByKey(edited, field.table, field.key);
          const oldValue = findRowByKey(base, field.table, field.key)[field.column];
          const newValue = value.flip ? flipped(oldValue) : value.value;
          row[field.column] = newValue;
          if (!isDeepStrictEqual(oldValue, newValue))
            expected.set(`${field.table}/${field.key}/${field.column}`, { oldValue, value: newValue });
        }
        const editedBefore = structuredClone(edited);
        const request = { base: loaded, edited, turn, name: 'prop', why: 'property test', dir };

        if (expected.size === 0) {
          expect(() => buildConstructed(request)).toThrow('base.json: no change: the edited fixture equals the base');
          return;
        }
        const built = buildConstructed(request);
        expect(edited).toStrictEqual(editedBefore);
        expect(built.document).toMatchObject({
          format: 'turnkit.constructed/1',
          name: 'prop',
          turn,
          base: { path: 'base.json', sha256: loaded.sha256 },
        });

        // Exactly the fields whose value changed, each with its old and new value typed exactly, all tied to the turn.
        const tied = rowsTiedToTurn(base, turn);
        expect(
          new Map(
            built.changes.map((change) => [fieldName(change), { oldValue: change.oldValue, value: change.value }]),
          ),
        ).toStrictEqual(expected);
        for (const change of built.changes)
          expect(tied.get(change.table)?.has(change.row), fieldName(change)).toBe(true);

        // In memory: the changeset as it would be read back from a file, applied to the frozen base.
        const read = columnChangesOf(JSON.parse(JSON.stringify(built.document.changeset)));
        expect(read.problems).toEqual([]);
        const changes = deepFreeze(read.changes);
        const applied = applyChanges(base, changes);
        expect(applied.conflicts).toEqual([]);
        expect(applied.fixture).toStrictEqual(edited);

        // Through the files: the constructed fixture next to its base, loaded the way every command loads it.
        await writeFile(join(dir, 'prop.json'), serializeDocument(built.document));
        const materialized = await loadFixture(join(dir, 'prop.json'));
        expect(materialized.fixture).toStrictEqual({ ...edited, name: 'prop' });
        expect(materialized.constructed?.base.sha256).toBe(loaded.sha256);
      }),
      { numRuns: 80 },
    );
    expect(base).toStrictEqual(snapshot);
  });
});

describe('applyChanges never mutates its input', () => {
  // A change per field: right old value (applies), wrong old value, missing row or missing column (conflicts).
  type Kind = 'apply' | 'wrong-old' | 'no-row' | 'no-column';
  const changeArb = fc.integer({ min: 1, max: 22 }).chain((turn) =>
    fc.uniqueArray(
      fc.record({
        field: fc.constantFrom(...FIELDS_BY_TURN.get(turn)!),
        kind: fc.constantFrom<Kind>('apply', 'apply', 'wrong-old', 'no-row', 'no-column'),
        value: fc.jsonValue({ maxDepth: 2 }).map(jsonNormal),
      }),
      {
        minLength: 1,
        maxLength: 6,
        selector: (entry) => `${entry.field.table}\u0000${entry.field.key}\u0000${entry.field.column}`,
      },
    ),
  );

  it('applies the changes whose old value matches, reports the others, and leaves base and changes as they were', () => {
    fc.assert(
      fc.property(changeArb, (entries) => {
        const changes: ColumnChange[] = entries.map(({ field, kind, value }) => {
          const current = findRowByKey(base, field.table, field.key)[field.column];
          return {
            table: field.table,
            row: kind === 'no-row' ? '999' : field.key,
            column: kind === 'no-column' ? 'no_such_column' : field.column,
            oldValue: kind === 'wrong-old' ? { not: current } : current,
            value,
          };
        });
        const frozen = deepFreeze(structuredClone(changes));
        const applied = applyChanges(base, frozen);
        expect(frozen).toStrictEqual(changes);
        expect(applied.conflicts.map((conflict) => conflict.path)).toEqual(
          entries
            .filter((entry) => entry.kind !== 'apply')
            .map(
              ({ field, kind }) =>
                `${field.table}[id=${kind === 'no-row' ? '999' : field.key}].${kind === 'no-column' ? 'no_such_column' : field.column}`,
            ),
        );
        for (const [i, entry] of entries.entries()) {
          if (entry.kind !== 'apply') continue;
          const result = findRowByKey(applied.fixture, entry.field.table, entry.field.key)[entry.field.column];
          expect(result).toStrictEqual(entry.value);
          // The result owns its values: changing it later cannot reach into the changeset.
          if (typeof result === 'object' && result !== null) expect(result).not.toBe(frozen[i]!.value);
        }
      }),
      { numRuns: 100 },
    );
    expect(base).toStrictEqual(snapshot);
  });
});

describe('keys 1 and "1" are not confused', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-construct-keys-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('records a value changed from 1 to "1" as a change and materializes it typed exactly', async () => {
    await writeFile(join(dir, 'base.json'), SAMPLE_TEXT);
    const loaded: LoadedFixture = {
      fixture: base,
      path: join(dir, 'base.json'),
      shown: 'base.json',
      sha256: sha256Of(SAMPLE_TEXT),
    };
    const minute = rowById(base, 'turns', '19').ship_minute;
    expect(typeof minute).toBe('number');
    // ship_minute is an integer column: the string "56" is refused, not taken for 56.
    const edited = structuredClone(base) as Fixture;
    rowById(edited, 'turns', '19').ship_minute = String(minute);
    expect(() => buildConstructed({ base: loaded, edited, turn: 19, name: 'typed', why: 'types', dir })).toThrow(
      `turns[id=19].ship_minute: new value "${minute}": the column is integer: expected a whole number`,
    );

    // world_facts 7 (introduced at turn 18) holds the jsonb number 3: the string "3" is another value.
    const facts = structuredClone(base) as Fixture;
    expect(rowById(facts, 'world_facts', '7').details).toBe(3);
    rowById(facts, 'world_facts', '7').details = '3';
    const onTurn18 = buildConstructed({ base: loaded, edited: facts, turn: 18, name: 'typed18', why: 'types', dir });
    expect(onTurn18.paths).toEqual(['world_facts[id=7].details']);
    expect(onTurn18.changes).toStrictEqual([
      { table: 'world_facts', row: '7', column: 'details', oldValue: 3, value: '3' },
    ]);
    await writeFile(join(dir, 'typed18.json'), serializeDocument(onTurn18.document));
    expect(rowById((await loadFixture(join(dir, 'typed18.json'))).fixture, 'world_facts', '7').details).toBe('3');

    // An old value of the wrong type is a conflict, not a match.
    const wrongType = applyChanges(base, [
      { table: 'turns', row: '19', column: 'ship_minute', oldValue: String(minute), value: 0 },
    ]);
    expect(wrongType.conflicts).toEqual([
      { path: 'turns[id=19].ship_minute', base: minute, old: String(minute), new: 0 },
    ]);
    expect(rowById(wrongType.fixture, 'turns', '19').ship_minute).toBe(minute);
  });

  it('refuses a patch naming {"id": 19} when the fixture\'s bigint key is "19", and says which type it uses', () => {
    const attempt = (): Fixture => applyPatch(base, { turns: [{ id: 19, narration: 'x' }] }, 'patch.json');
    expect(attempt).toThrow(TurnkitError);
    expect(attempt).toThrow(
      'patch.json: $.turns[0]: no row with id = 19 in turns (the fixture has id = "19": keys match by type too)',
    );
    const patched = applyPatch(base, { turns: [{ id: '19', narration: 'x' }] }, 'patch.json');
    expect(rowById(patched, 'turns', '19').narration).toBe('x');
  });

  it('materializes changes to the integer-keyed row 1 and the text-keyed row "1" in their own tables', async () => {
    const keysBase = keysFixture();
    const text = serializeDocument(keysBase);
    await writeFile(join(dir, 'keys.json'), text);
    const loaded: LoadedFixture = {
      fixture: deepFreeze(parseFixtureText(text, 'keys.json')),
      path: join(dir, 'keys.json'),
      shown: 'keys.json',
      sha256: sha256Of(text),
    };
    const edited = structuredClone(keysBase);
    rowById(edited, 'turns', 1).narration = 'A five.';
    rowById(edited, 'dice', 1).value = 5;
    rowById(edited, 'notes', '1').body = 'note 1, corrected';

    const built = buildConstructed({ base: loaded, edited, turn: 1, name: 'keys-fixed', why: 'keys', dir });
    expect(built.paths.sort()).toEqual(['dice[id=1].value', 'notes[id=1].body', 'turns[id=1].narration']);
    await writeFile(join(dir, 'keys-fixed.json'), serializeDocument(built.document));
    const materialized = (await loadFixture(join(dir, 'keys-fixed.json'))).fixture;
    expect(materialized).toStrictEqual({ ...edited, name: 'keys-fixed' });
    expect(materialized.tables.dice!.rows).toStrictEqual([
      { id: 1, turn_id: 1, value: 5 },
      { id: 2, turn_id: 2, value: 1 },
    ]);
    expect(materialized.tables.notes!.rows).toStrictEqual([
      { id: '01', turn_id: 2, body: 'note 01' },
      { id: '1', turn_id: 1, body: 'note 1, corrected' },
    ]);

    // A patch must name each row with its own key type.
    expect(() => applyPatch(loaded.fixture, { notes: [{ id: 1, body: 'x' }] }, 'p.json')).toThrow(
      'p.json: $.notes[0]: no row with id = 1 in notes (the fixture has id = "1": keys match by type too)',
    );
    expect(() => applyPatch(loaded.fixture, { dice: [{ id: '1', value: 2 }] }, 'p.json')).toThrow(
      'p.json: $.dice[0]: no row with id = "1" in dice (the fixture has id = 1: keys match by type too)',
    );
    // "01" is not "1": no loose match and no hint.
    expect(() => applyPatch(loaded.fixture, { notes: [{ id: '001', body: 'x' }] }, 'p.json')).toThrow(
      /^p\.json: \$\.notes\[0\]: no row with id = "001" in notes$/,
    );
  });
});
