import { reachesThrough } from '../../fixture/graph/spine-edges.js';
import type { TableInfo } from '../../db/catalog-types.js';
import type { Queryable } from '../../db/introspect.js';
import { queryNamed } from '../../db/named-statement.js';
import { quoteIdent } from '../../db/quote.js';
import type { GameGraph } from '../../fixture/graph/game-graph.js';
import { identityColumns, needsRowAddress } from '../../fixture/graph/row-identity.js';
import { HORIZON_NOW, rowKeySql, writtenSince } from './write-horizon.js';
import type { EffectsSummary } from './scratch-effects.js';
import { turnRowInsertSql, type TurnRowWrite } from '../turn-row-insert.js';
import { fixtureKeys } from './fixture-values.js';
import { inverseKeyMap, type KeyMap } from '../remap/remap-rows.js';
import type { SeedPlan } from '../seed-plan.js';
import type { SerializedKeyMap } from '../remap/seed-remap.js';

/** How the campaign was seeded: the fixture's plan and the key map, so that inserted rows show the fixture's keys. */
export interface SeededKeys {
  plan: SeedPlan;
  keyMap: SerializedKeyMap;
}

/** How the reader sends its statements. */
export interface ReaderOptions {
  /**
   * Named statements (db/named-statement.ts): each connection parses and plans
   * the per-turn read once instead of every turn. Off, every statement is sent unnamed.
   */
  named?: boolean;
}

/** A row as a turn's effects show it (in the fixture's keys, as a rep's effects show theirs). */
type ShowRow = (row: Record<string, unknown>) => Record<string, unknown>;

/** A turn's changed rows as read: per table, each written row's key and whole row, and the table's row count. */
export interface TurnDelta {
  effects: EffectsSummary;
  /** Rows of the turns table inserted during the turn, whole (to show the next case file what was played). */
  turnRows: Record<string, unknown>[];
  /** The turn's row as turnkit wrote it, when it was asked to and the SUT had written none. */
  written?: Record<string, unknown> | undefined;
}

const SAMPLE_ROWS = 3;

/**
 * Added to the condition of the turn row's insert: the inserting transaction commits without waiting for its WAL to
 * reach the disk (`synchronous_commit` off for that transaction only). The row is visible to the SUT's next call as
 * soon as the statement returns either way; what a server crash could lose is the last few such commits of a scratch
 * campaign that the crash has ended anyway (gc removes it), and the wait was a flush per turn, most of the turn's
 * own time on a busy disk. Only a transaction that inserted waits, so it goes where the insert is.
 */
const NO_FLUSH_WAIT = `set_config('synchronous_commit', 'off', true) IS NOT NULL`;

/** Rows written since the horizon (`$2`). */
const WRITTEN = writtenSince('$2');

/** The next turn's horizon, as the read's last row: the statement's own snapshot's xmax. */
const HORIZON_ROW = `(SELECT -1 AS i, ${HORIZON_NOW} AS n, NULL AS r)`;

/**
 * One scan of a tracked table for a turn: the campaign's row count (what was deleted shows in it) and, as one JSON
 * array of `[key, row]`, the rows written since the horizon (NULL when none). One scan instead of two (the written
 * rows, then the count) and one row per table back instead of one per written row.
 */
function turnScanSql(table: Tracked, i: number): string {
  return `SELECT ${i} AS i, count(*) AS n, jsonb_agg(jsonb_build_array(${table.key}, to_jsonb(t))) FILTER (WHERE ${WRITTEN})::text AS r FROM ${table.info.from} AS t WHERE ${table.filter}`;
}

/** How a tracked table's campaign rows are found: its SQL filter on alias `t`, with the root key as `$1`. */
interface Tracked {
  info: TableInfo;
  key: string;
  filter: string;
}

/**
 * Reads what each turn of a rollout changed without walking the campaign: rows whose `xmin` is at or past the write
 * horizon read before the turn are the ones written during it (inserted when their key was not in the campaign
 * before, updated otherwise), and deletions come from each table's row count. Each turn costs one statement: a scan
 * for the written rows and a count per table, with no rows sent back but the changed ones (and, for a SUT that only
 * answers, the insert of the turn's row). The campaign's keys are read once, when the rollout starts.
 */
export class TurnEffectsReader {
  private horizon = '';
  /** Input rows turnkit wrote for the coming turn (a game whose turns are several rows): that turn's effects. */
  private pendingInput: Record<string, unknown>[] = [];
  private readonly known = new Map<string, Set<string>>();
  private readonly counts = new Map<string, number>();
  private readonly shown = new Map<string, ShowRow>();
  /** The seed's key map turned around (scratch key to fixture key), made when a first row is shown. */
  private backKeys: KeyMap | undefined;
  /** Each tracked table's one scan a turn (its count and its written rows), the same every turn: made once. */
  private readonly scans: string[];
  /** The per-turn read of a SUT that writes its own turns: the scans and the next horizon, made once. */
  private readonly readText: string;

  private constructor(
    private readonly tracked: Tracked[],
    /** Owned tables whose rows cannot be told apart per turn (no key, or no foreign-key path to the root). */
    readonly untracked: string[],
    private readonly graph: GameGraph,
    private readonly rootKey: string,
    private readonly seeded: SeededKeys | undefined,
    private readonly named: boolean,
  ) {
    this.scans = tracked.map((table, i) => turnScanSql(table, i));
    this.readText = [...this.scans.map((scan) => `(${scan})`), HORIZON_ROW].join('\nUNION ALL\n');
  }

  private get turnsTable(): string {
    return this.graph.turns.name;
  }

  /**
   * Reads the campaign's keys and the write horizon once, before the rollout's first turn. Given how the campaign
   * was seeded, the inserted rows a turn's effects show carry the fixture's keys where they name a seeded row (the
   * campaign, its session), as a single-turn rep's do; without it they show the scratch campaign's.
   */
  static async open(
    client: Queryable,
    graph: GameGraph,
    rootKey: string,
    seeded?: SeededKeys,
    options: ReaderOptions = {},
  ): Promise<TurnEffectsReader> {
    const { tracked, untracked } = trackedTables(graph);
    const reader = new TurnEffectsReader(tracked, untracked, graph, rootKey, seeded, options.named ?? false);
    // Every table's keys and the horizon in one statement (one snapshot, one round trip).
    const parts = tracked.map(
      (table, i) => `(SELECT ${i} AS i, ${table.key} AS k FROM ${table.info.from} AS t WHERE ${table.filter})`,
    );
    parts.push(`(SELECT -1, ${HORIZON_NOW}::text)`);
    // Named too: every rep of a rollout opens a reader with this same text.
    const { rows } = await queryNamed<{ i: number; k: string }>(
      client,
      reader.named,
      parts.join('\nUNION ALL\n'),
      tracked.length > 0 ? [rootKey] : [],
    );
    for (const table of tracked) reader.known.set(table.info.name, new Set());
    for (const row of rows) {
      if (row.i === -1) reader.horizon = row.k;
      else reader.known.get(tracked[row.i]!.info.name)!.add(row.k);
    }
    for (const table of tracked) reader.counts.set(table.info.name, reader.known.get(table.info.name)!.size);
    return reader;
  }

  /**
   * What was written since the turn started; the campaign's keys and counts move on to include it. With `write`
   * (a SUT that only answers), the same statement also inserts the turn's row when the SUT wrote none: one round trip
   * per turn either way. That row is the turn's too, counted here (the statement's reads do not see its own insert),
   * and rows written from after its transaction on are the next turn's.
   */
  async read(client: Queryable, write?: TurnRowWrite): Promise<TurnDelta> {
    const effects = noEffects();
    const turnRows: Record<string, unknown>[] = [];
    for (const row of this.pendingInput.splice(0)) this.countInserted(effects, this.turnsTable, row);
    if (this.tracked.length === 0 && !write) return { effects, turnRows };
    const values: unknown[] = [this.rootKey, this.horizon];
    let text = this.readText;
    if (write) {
      // Written only when the SUT wrote no turn row of its own (a turns table without a key cannot tell: always).
      // The turns table's one scan is a CTE the insert's condition and the read's row both use.
      const turns = this.tracked.findIndex((table) => table.info.name === this.turnsTable);
      const none = turns >= 0 ? `(SELECT r FROM scan_${turns}) IS NULL` : 'true';
      const scans = this.tracked.map((_, i) =>
        i === turns ? `(SELECT ${i} AS i, n, r FROM scan_${i})` : `(${this.scans[i]})`,
      );
      const insert = turnRowInsertSql(this.graph, write, values, `${none} AND ${NO_FLUSH_WAIT}`);
      text = `WITH ${turns >= 0 ? `scan_${turns} AS (${this.scans[turns]}),\n` : ''}${insert}\n${[
        ...scans,
        '(SELECT -2 AS i, h AS n, r FROM written_turn)',
        HORIZON_ROW,
      ].join('\nUNION ALL\n')}`;
    }
    // The text is the same every turn (the campaign, the horizon and the turn row's values are parameters): named,
    // it is parsed and planned once per connection.
    const { rows } = await queryNamed<{ i: number; n: string; r: string | null }>(client, this.named, text, values);
    const changed = new Map<number, [key: string, row: Record<string, unknown>][]>();
    const counted = new Map<number, number>();
    let inserted: { row: Record<string, unknown>; horizon: string } | undefined;
    for (const row of rows) {
      if (row.i === -1) this.horizon = row.n;
      else if (row.i === -2) inserted = { row: JSON.parse(row.r!) as Record<string, unknown>, horizon: row.n };
      else {
        counted.set(row.i, Number(row.n));
        if (row.r !== null) changed.set(row.i, JSON.parse(row.r) as [string, Record<string, unknown>][]);
      }
    }
    this.tracked.forEach((table, i) => {
      const name = table.info.name;
      const known = this.known.get(name)!;
      let inserted = 0;
      let updated = 0;
      for (const [k, row] of changed.get(i) ?? []) {
        if (known.has(k)) updated++;
        else {
          if (name === this.turnsTable) turnRows.push(row);
          inserted++;
          known.add(k);
          this.countInserted(effects, name, row);
        }
      }
      const now = counted.get(i) ?? 0;
      const deleted = this.counts.get(name)! + inserted - now;
      this.counts.set(name, now);
      if (updated > 0) effects.updated[name] = updated;
      if (deleted > 0) effects.deleted[name] = deleted;
    });
    // A turn row the SUT updated but did not add stops the statement's insert (its xmin moved on too), yet it is not
    // the turn's row: that one is still to write, in a statement of its own (rare: a SUT that only answers but touches
    // an earlier turn, or a trigger that does).
    if (write && !inserted && turnRows.length === 0) inserted = await this.insertTurnRow(client, write);
    if (inserted) this.countWritten(effects, inserted.row, inserted.horizon);
    return { effects, turnRows, written: inserted?.row };
  }

  /**
   * Writes the player's input row of the coming turn before the SUT is called (a game whose turns are several rows:
   * the player's message is in the database when the SUT plays it). The row is that turn's effect, not the SUT's
   * turn row: rows written from after its transaction on are the ones the next `read` looks at.
   */
  async writeInput(client: Queryable, write: TurnRowWrite): Promise<Record<string, unknown>> {
    const inserted = await this.insertTurnRow(client, write);
    this.countWritten(noEffects(), inserted.row, inserted.horizon);
    this.pendingInput.push(inserted.row);
    return inserted.row;
  }

  // The turn's row alone, for when the read's own insert was held back by an updated turn row.
  private async insertTurnRow(
    client: Queryable,
    write: TurnRowWrite,
  ): Promise<{ row: Record<string, unknown>; horizon: string }> {
    const values: unknown[] = [this.rootKey];
    const { rows } = await queryNamed<{ r: string; h: string }>(
      client,
      this.named,
      `WITH ${turnRowInsertSql(this.graph, write, values, NO_FLUSH_WAIT)}\nSELECT r, h::text AS h FROM written_turn`,
      values,
    );
    return { row: JSON.parse(rows[0]!.r) as Record<string, unknown>, horizon: rows[0]!.h };
  }

  // The turn row this statement inserted: its key joins the campaign's and its table's count grows, without reading
  // again; rows written from after the inserting transaction on (`horizon`, its id + 1) are the next turn's.
  private countWritten(effects: EffectsSummary, row: Record<string, unknown>, horizon: string): void {
    this.horizon = horizon;
    const table = this.turnsTable;
    const tracked = this.tracked.find((entry) => entry.info.name === table);
    if (!tracked) return;
    this.known.get(table)!.add(
      identityColumns(tracked.info)
        .map((column) => String(row[column]))
        .join(','),
    );
    this.counts.set(table, this.counts.get(table)! + 1);
    this.countInserted(effects, table, row);
  }

  // One inserted row in a turn's effects: the table's count and, among the first few, the row as shown.
  private countInserted(effects: EffectsSummary, table: string, row: Record<string, unknown>): void {
    effects.inserted[table] = (effects.inserted[table] ?? 0) + 1;
    const sample = (effects.insertedRows[table] ??= []);
    if (sample.length < SAMPLE_ROWS) sample.push(this.show(table, row));
  }

  // A row of a table as the effects show it: in the fixture's keys when the seed is known (one translator a table,
  // made the first time the table shows a row).
  private show(table: string, row: Record<string, unknown>): Record<string, unknown> {
    const info = this.graph.catalog.tables.get(table);
    if (!this.seeded || !info) return row;
    let show = this.shown.get(table);
    if (!show) {
      this.backKeys ??= inverseKeyMap(this.seeded.keyMap);
      this.shown.set(table, (show = fixtureKeys(this.seeded.plan, table, info, this.backKeys)));
    }
    return show(row);
  }
}

function noEffects(): EffectsSummary {
  return { inserted: {}, updated: {}, deleted: {}, insertedRows: {} };
}

// Each owned table with a key, reached from the root through foreign keys: its campaign filter nests one IN per hop.
function trackedTables(graph: GameGraph): { tracked: Tracked[]; untracked: string[] } {
  const filters = new Map<string, (alias: string, depth: number) => string>();
  filters.set(graph.root.name, (alias) => `${alias}.${quoteIdent(graph.rootKey.name)} = $1`);
  const queue = [graph.root.name];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    const parentFilter = filters.get(parent)!;
    const parentInfo = graph.catalog.tables.get(parent)!;
    for (const { child, fk } of graph.childEdges.get(parent) ?? []) {
      if (!graph.owned.has(child.name) || filters.has(child.name) || !reachesThrough(graph, child.name, fk.name))
        continue;
      // A child that names the root directly is filtered on its own column (the index games keep on campaign_id).
      const direct = parent === graph.root.name && fk.columns.length === 1;
      filters.set(child.name, (alias, depth) => {
        if (direct) return `${alias}.${quoteIdent(fk.columns[0]!)} = $1`;
        const inner = `p${depth}`;
        // A declared reference may keep its key as text (a uuid in a text column): compared as text.
        const cast = fk.declared ? '::text' : '';
        const columns = fk.columns.map((column) => `${alias}.${quoteIdent(column)}${cast}`).join(', ');
        const referenced = fk.references.columns.map((column) => `${inner}.${quoteIdent(column)}${cast}`).join(', ');
        return `(${columns}) IN (SELECT ${referenced} FROM ${parentInfo.from} AS ${inner} WHERE ${parentFilter(inner, depth + 1)})`;
      });
      queue.push(child.name);
    }
  }
  const tracked: Tracked[] = [];
  const untracked: string[] = [];
  for (const name of [...graph.owned].sort()) {
    const info = graph.catalog.tables.get(name)!;
    const filter = filters.get(name);
    if (!filter || needsRowAddress(info)) {
      untracked.push(name);
      continue;
    }
    tracked.push({ info, key: rowKeySql(identityColumns(info)), filter: filter('t', 0) });
  }
  return { tracked, untracked };
}
