import { dirname, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { CommonOptions } from '../config/common-options.js';
import { loadConfig, resolveFromConfig } from '../config/load.js';
import { TurnkitError } from '../errors.js';
import type { Fixture, FixtureColumn } from '../fixture/format.js';
import { changePath, type ColumnChange } from '../fixture/column-change.js';
import { diffFixtures } from './diff-fixtures.js';
import { loadFixture, type LoadedFixture } from '../fixture/load-fixture.js';
import { describeRow, findRow, rowKey } from '../fixture/row-key.js';
import { saveConstructed, type SavedConstructed } from './save-constructed.js';
import { lockReason } from '../fixture/turns/single-turn-rule.js';
import { valueProblem } from '../fixture/column-values.js';
import { rowsTiedToTurn, turnModelOf, turnOfTiedRow, turnsInOrder } from '../fixture/turns/turn-rows.js';
import { groupsRows } from '../fixture/turns/turn-groups.js';
import { turnLines } from '../fixture/turns/turn-text.js';
import { valueDiff, type DiffSegment } from './word-diff.js';

/** One kept turn as the editor lists it. */
export interface TurnListing {
  turn: number;
  input: string;
  narration: string;
  changed: boolean;
}

/** One column of a row tied to the turn being edited. */
export interface EditableField {
  column: string;
  type: string;
  value: unknown;
  /** text: a string column edited as text; json: any other value edited as JSON. */
  kind: 'text' | 'json';
  /** Why it cannot be edited (a key, a generated column, the turn order), or undefined. */
  locked?: string;
  nullable: boolean;
  changed: boolean;
}

/** A row tied to a turn with its fields. */
export interface EditableRow {
  table: string;
  key: string;
  label: string;
  fields: EditableField[];
}

/** A change as the editor shows it: its path and a word diff of the values. */
export interface ShownChange {
  path: string;
  change: ColumnChange;
  segments: DiffSegment[];
}

const TEXT_TYPE = /^(text|character varying|varchar|character|char|bpchar|citext|name)\b/;

/**
 * The state of `turnkit edit`: the opened fixture, the edited copy and the rules (one turn only, no keys). Editing a
 * constructed fixture's own turn continues its diff against its base; editing another turn makes a new link whose
 * base is the constructed fixture.
 */
export class EditSession {
  /** The file as opened (materialized when constructed). */
  readonly opened: LoadedFixture;
  /** The edited copy; replaced, never mutated, on every change. */
  current: Fixture;

  constructor(opened: LoadedFixture) {
    this.opened = opened;
    this.current = opened.fixture;
  }

  /** The kept turns, with the first line of their input and of their narration. */
  turns(): TurnListing[] {
    const inputColumns = Object.keys(this.current.input.values);
    const turnsTable = this.current.tables[this.current.source.turns.table];
    const narrationColumn = turnsTable?.columns.find(
      (column) =>
        TEXT_TYPE.test(column.type) &&
        !inputColumns.includes(column.name) &&
        !turnsTable.primaryKey.includes(column.name),
    )?.name;
    const changed = this.changes().length > 0 ? this.editedTurn() : undefined;
    if (groupsRows(turnModelOf(this.current))) {
      // A game turn of several rows: the player's rows under input, the others (narration, dice...) beside them.
      // A prologue (turn 0: the rows before the first player message) is listed and edited like any kept turn.
      return turnsInOrder(this.current).map((entry) => {
        const lines = turnLines(this.current, entry);
        const said = (input: boolean): string =>
          lines
            .filter((line) => line.input === input && line.text !== '')
            .map((line) => (input ? firstLine(line.text) : `${line.speaker}: ${firstLine(line.text)}`))
            .join(' · ');
        return { turn: entry.turn, input: said(true), narration: said(false), changed: changed === entry.turn };
      });
    }
    return turnsInOrder(this.current).map(({ turn, rows: [row] }) => ({
      turn,
      input: firstLine(inputColumns.map((column) => row![column]).find((value) => typeof value === 'string') ?? ''),
      narration: firstLine(narrationColumn ? row![narrationColumn] : ''),
      changed: changed === turn,
    }));
  }

  /** The rows tied to a turn (its own row first), each with its fields. */
  rowsOfTurn(turn: number): EditableRow[] {
    const tied = rowsTiedToTurn(this.current, turn);
    const base = this.baseFor(turn).fixture;
    const rows: EditableRow[] = [];
    const order = [
      this.current.source.turns.table,
      ...[...tied.keys()].filter((name) => name !== this.current.source.turns.table),
    ];
    for (const tableName of order) {
      const table = this.current.tables[tableName];
      if (!table) continue;
      for (const key of tied.get(tableName) ?? []) {
        const row = findRow(table, key)!;
        const baseRow = base.tables[tableName] ? findRow(base.tables[tableName], key) : undefined;
        rows.push({
          table: tableName,
          key,
          label: describeRow(tableName, table.primaryKey, key),
          fields: table.columns.map((column) =>
            this.field(tableName, column, row[column.name], baseRow?.[column.name]),
          ),
        });
      }
    }
    return rows;
  }

  /** Why a turn cannot be edited now (another turn has changes), or undefined when it can. */
  refusal(turn: number): string | undefined {
    const edited = this.editedTurn();
    if (edited === undefined || edited === turn || this.changesAgainstOpened().length === 0) return undefined;
    return `turn ${edited} already has changes: one turn per constructed fixture`;
  }

  /** Sets one column of one row; refused when another turn already has changes or the column is locked. */
  setValue(turn: number, table: string, key: string, column: string, value: unknown): void {
    const refused = this.refusal(turn);
    if (refused) throw new TurnkitError('BAD_INPUT', refused);
    const field = this.rowsOfTurn(turn)
      .find((row) => row.table === table && row.key === key)
      ?.fields.find((entry) => entry.column === column);
    if (!field)
      throw new TurnkitError(
        'BAD_INPUT',
        `${describeRow(table, this.current.tables[table]?.primaryKey ?? [], key)}.${column}: not a field of turn ${turn}`,
      );
    if (field.locked) throw new TurnkitError('BAD_INPUT', `${column}: ${field.locked}`);
    const source = this.current.tables[table]!;
    const unfit = valueProblem(source.columns.find((entry) => entry.name === column)!, value);
    if (unfit) throw new TurnkitError('BAD_INPUT', `${column} ${unfit}`);
    const rows = source.rows.map((row) => (rowKey(row, source.primaryKey) === key ? { ...row, [column]: value } : row));
    this.current = { ...this.current, tables: { ...this.current.tables, [table]: { ...source, rows } } };
  }

  /** Puts one column back to its value in the base. */
  revert(turn: number, table: string, key: string, column: string): void {
    const baseRow = findRow(this.baseFor(turn).fixture.tables[table]!, key);
    if (baseRow && column in baseRow) this.setValue(turn, table, key, column, baseRow[column]);
  }

  /** The turn being edited: the one with changes against the opened file, else a constructed file's own turn. */
  editedTurn(): number | undefined {
    const changes = this.changesAgainstOpened();
    if (changes.length > 0) return this.turnOfChange(changes[0]!);
    return this.opened.constructed?.document.turn;
  }

  /** True when the edited copy differs from the file as opened (quitting would lose work). */
  isDirty(): boolean {
    return this.changesAgainstOpened().length > 0;
  }

  /** The changes that saving would record, against the base that saving would use. */
  changes(): ShownChange[] {
    if (this.shown?.of === this.current) return this.shown.changes;
    const turn = this.editedTurn();
    const base = turn === undefined ? undefined : this.baseFor(turn).fixture;
    const changes = !base
      ? []
      : diffFixtures(base, this.current).changes.map((change) => ({
          path: changePath(change, base.tables[change.table]?.primaryKey ?? []),
          change,
          segments: valueDiff(change.oldValue, change.value),
        }));
    this.shown = { of: this.current, changes };
    return changes;
  }

  /**
   * The changes as they would be with one more value set, without setting it: the editor's live diff while the
   * user types. Shows the current changes when the value cannot be set (another turn, a locked column).
   */
  previewChanges(turn: number, table: string, key: string, column: string, value: unknown): ShownChange[] {
    const current = this.current;
    try {
      this.setValue(turn, table, key, column, value);
      return this.changes();
    } catch (error) {
      if (error instanceof TurnkitError) return this.changes();
      throw error;
    } finally {
      this.current = current;
    }
  }

  /** Name and why to offer in the save dialog (a constructed fixture's own when its turn is edited again). */
  defaults(turn = this.editedTurn()): { name: string; why: string } {
    const constructed = this.opened.constructed?.document;
    if (constructed && turn === constructed.turn) return { name: constructed.name, why: constructed.why };
    return { name: `${this.opened.fixture.name}-turn-${turn ?? 'N'}`, why: '' };
  }

  /**
   * Writes the constructed fixture through the same code path as `turnkit construct`. Continuing a constructed
   * fixture may replace the file that was opened (that is what continuing means); any other existing file needs force.
   */
  async save(name: string, why: string, dir: string, force = false): Promise<SavedConstructed> {
    const turn = this.editedTurn();
    if (turn === undefined) throw new TurnkitError('BAD_INPUT', 'no change: edit a field first');
    const base = this.baseFor(turn);
    const continuing = base !== this.opened && join(dir, `${name}.json`) === this.opened.path;
    return saveConstructed({
      base,
      edited: { ...this.current, name: base.fixture.name },
      turn,
      name,
      why,
      dir,
      force: force || continuing,
    });
  }

  /** The base a change of this turn is recorded against (see the class comment). */
  baseFor(turn: number): LoadedFixture {
    const constructed = this.opened.constructed;
    return constructed && constructed.document.turn === turn ? constructed.base : this.opened;
  }

  // Every keystroke re-renders; the diff of a large fixture is computed once per edited copy, not once per call.
  private changesAgainstOpened(): ColumnChange[] {
    if (this.diffed?.of !== this.current)
      this.diffed = { of: this.current, changes: diffFixtures(this.opened.fixture, this.current).changes };
    return this.diffed.changes;
  }

  private turnOfChange(change: ColumnChange): number | undefined {
    const where = `${change.table}\u0000${change.row}`;
    if (!this.turnOfRow.has(where)) {
      this.turnOfRow.set(where, turnOfTiedRow(this.opened.fixture, change.table, change.row));
    }
    return this.turnOfRow.get(where);
  }

  private diffed?: { of: Fixture; changes: ColumnChange[] };
  private shown?: { of: Fixture; changes: ShownChange[] };
  private readonly turnOfRow = new Map<string, number | undefined>();

  private field(tableName: string, column: FixtureColumn, value: unknown, baseValue: unknown): EditableField {
    const locked = lockReason(this.current, tableName, column.name);
    return {
      column: column.name,
      type: column.type,
      value,
      kind: TEXT_TYPE.test(column.type) && (typeof value === 'string' || value === null) ? 'text' : 'json',
      ...(locked ? { locked } : {}),
      nullable: column.nullable,
      changed: !isDeepStrictEqual(value, baseValue),
    };
  }
}

function firstLine(value: unknown): string {
  return typeof value === 'string' ? (value.split('\n')[0] ?? '') : '';
}

/** Options of `turnkit edit`. */
export interface OpenEditOptions extends CommonOptions {
  fixture: string;
  /** The folder `fixture`, `out` and the config are found from (the command line's: the shell's). */
  cwd: string;
  /** Output folder (default: beside an opened constructed fixture, else the config's constructed folder). */
  out?: string | undefined;
}

/** Loads a fixture (captured or constructed) for editing and finds where the constructed fixture will be written. */
export async function openEditSession(options: OpenEditOptions): Promise<{ session: EditSession; outDir: string }> {
  const cwd = options.cwd;
  const config = await loadConfig({ configPath: options.configPath, cwd });
  const session = new EditSession(await loadFixture(resolve(cwd, options.fixture)));
  // A constructed fixture's continuation (or next link) goes beside it, not into another folder of the same name.
  const beside = session.opened.constructed
    ? dirname(session.opened.path)
    : resolveFromConfig(config, config.paths.constructed);
  const outDir = options.out !== undefined ? resolve(cwd, options.out) : beside;
  return { session, outDir };
}
