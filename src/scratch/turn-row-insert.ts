import { quoteIdent } from '../db/quote.js';
import type { ColumnInfo, ForeignKeyInfo } from '../db/catalog-types.js';
import type { GameGraph } from '../fixture/graph/game-graph.js';
import { reachesThrough } from '../fixture/graph/spine-edges.js';
import { HORIZON_PAST_OWN } from './effects/write-horizon.js';

/** A played turn's row for turnkit to write, for a SUT that only answers (`game.turns.output` in the config). */
export interface TurnRowWrite {
  input: Record<string, unknown>;
  response: string;
  /** The columns the response fills (none for the player's input row of a game whose turns are several rows). */
  output: readonly string[];
  /** Columns set to these values whatever else holds (the game's turn column and the row's role). */
  set?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The common table expressions that insert a played turn's row, for a statement that does more (the per-turn
 * effects read, turn-effects.ts: one round trip per turn). The row takes the order column one past the campaign's
 * last turn (now() for a timestamp order), the input columns, the output columns from the response, and every other
 * column as the turn before had it (a column with a default takes its default; identity and generated columns are
 * the database's). It is inserted only when `when` holds; `$1` is the campaign's root key and `values` the
 * statement's parameters so far, to which this appends its own. The CTE `written_turn` returns the row as written
 * (`r`, JSON) and the write horizon just past the inserting transaction (`h`: its id + 1).
 */
export function turnRowInsertSql(graph: GameGraph, turn: TurnRowWrite, values: unknown[], when: string): string {
  const table = graph.turns;
  const path = campaignPath(graph);
  // Directly below the root, the campaign's rows are those whose column holds `$1`; further below (an entry's
  // session, the session's room), those whose parent chain reaches it, and the new row takes the parent of the
  // campaign's last turn.
  const direct = path.length === 1 && path[0]!.columns.length === 1 ? path[0]!.columns[0]! : undefined;
  const parentColumns = new Set(direct === undefined ? path[0]!.columns : []);
  const inCampaign = (alias: string): string => campaignFilter(graph, path, alias);
  const order = graph.turnOrder;
  const param = (value: unknown): string => {
    values.push(value === null || typeof value !== 'object' ? value : JSON.stringify(value));
    return `$${values.length}`;
  };
  const outputs = outputValues(turn.response, turn.output);
  const names: string[] = [];
  const expressions: string[] = [];
  for (const column of table.columns) {
    if (column.generated !== null || column.identity !== null) continue;
    const name = column.name;
    let expression: string | undefined;
    if (name === direct) expression = '$1';
    else if (parentColumns.has(name)) expression = `(SELECT p.${quoteIdent(name)} FROM previous AS p)`;
    else if (turn.set && Object.hasOwn(turn.set, name)) expression = param(turn.set[name]);
    else if (name === order.name)
      expression = ['int', 'bigint', 'numeric'].includes(order.codec.kind)
        ? `coalesce((SELECT max(l.${quoteIdent(name)}) FROM ${table.from} AS l WHERE ${inCampaign('l')}), 0) + 1`
        : 'now()';
    else if (Object.hasOwn(outputs, name)) expression = param(outputs[name]);
    else if (Object.hasOwn(turn.input, name)) expression = param(turn.input[name]);
    // A uuid key the client makes (no default): a fresh one, not the turn before's (which would collide).
    else if (column.default === null && column.type === 'uuid' && table.primaryKey.includes(name))
      expression = 'gen_random_uuid()';
    // A text key the client makes (a cuid, `turn_...`): the turn before's, its prefix kept and every other letter and
    // digit drawn afresh within its class, so the new key has the shape the game's code expects.
    else if (column.default === null && TEXT_KEY.test(column.type) && table.primaryKey.includes(name))
      expression = freshTextKeySql(name);
    else if (column.default === null) {
      const copied = `(SELECT p.${quoteIdent(name)} FROM previous AS p)`;
      // The campaign's first turn has no turn before it: a required column gets a value of its type instead.
      const stand = column.nullable ? undefined : standInSql(graph, column);
      expression = stand ? `coalesce(${copied}, ${stand})` : copied;
    }
    if (expression === undefined) continue;
    names.push(quoteIdent(name));
    expressions.push(`${expression}::${column.type}`);
  }
  const previous = `previous AS (SELECT * FROM ${table.from} AS p WHERE ${inCampaign('p')} ORDER BY p.${quoteIdent(order.name)} DESC LIMIT 1)`;
  // The inserting transaction's id + 1 is where the next turn's writes begin (its own row is this turn's).
  const insert = `written_turn AS (INSERT INTO ${table.sql} AS t (${names.join(', ')}) SELECT ${expressions.join(', ')} WHERE ${when} RETURNING to_jsonb(t)::text AS r, ${HORIZON_PAST_OWN} AS h)`;
  return `${previous},\n${insert}`;
}

/**
 * The foreign keys from the turns table up to the root (the nearest chain, through the keys a turn row is reached
 * by: spine-edges.ts), or an error when there is none: turnkit cannot tell which campaign a row it writes is in.
 */
function campaignPath(graph: GameGraph): ForeignKeyInfo[] {
  const start = graph.turns.name;
  const paths = new Map<string, ForeignKeyInfo[]>([[start, []]]);
  const queue = [start];
  while (queue.length > 0) {
    const name = queue.shift()!;
    const info = graph.catalog.tables.get(name)!;
    for (const fk of info.foreignKeys) {
      const target = fk.references.table;
      if (paths.has(target) || !reachesThrough(graph, name, fk.name)) continue;
      if (target !== graph.root.name && !graph.owned.has(target)) continue;
      const path = [...paths.get(name)!, fk];
      if (target === graph.root.name) return path;
      paths.set(target, path);
      queue.push(target);
    }
  }
  throw new Error(`${start} has no foreign-key path to ${graph.root.name}: turnkit cannot write its turns`);
}

// The condition that a row (alias) of the turns table is in the campaign whose root key is $1, one IN per hop.
function campaignFilter(graph: GameGraph, path: readonly ForeignKeyInfo[], alias: string, depth = 0): string {
  const [fk, ...rest] = path;
  if (!fk) return `${alias}.${quoteIdent(graph.rootKey.name)} = $1`;
  if (rest.length === 0 && fk.columns.length === 1) return `${alias}.${quoteIdent(fk.columns[0]!)} = $1`;
  const parent = graph.catalog.tables.get(fk.references.table)!;
  const inner = `c${depth}`;
  // A declared reference may keep its key as text (a uuid in a text column): compared as text.
  const cast = fk.declared ? '::text' : '';
  const columns = fk.columns.map((column) => `${alias}.${quoteIdent(column)}${cast}`).join(', ');
  const referenced = fk.references.columns.map((column) => `${inner}.${quoteIdent(column)}${cast}`).join(', ');
  return `(${columns}) IN (SELECT ${referenced} FROM ${parent.from} AS ${inner} WHERE ${campaignFilter(graph, rest, inner, depth + 1)})`;
}

const TEXT_KEY = /^(text|character varying|varchar|citext)\b/;

/**
 * A value for a NOT NULL column with no default when no earlier turn row has one to copy: the row a rebuilt or
 * seeded campaign's first turn needs only for its input (capture reads turn N's input columns, nothing else), so any
 * value of the column's type does. A reference takes a row of the table it references; an enum its first label.
 * Undefined for a type with no plain stand-in (the insert then fails on the constraint, as before).
 */
function standInSql(graph: GameGraph, column: ColumnInfo): string | undefined {
  const fk = graph.turns.foreignKeys.find((key) => key.columns.length === 1 && key.columns[0] === column.name);
  const referenced = fk && graph.catalog.tables.get(fk.references.table);
  if (fk && referenced) {
    const target = quoteIdent(fk.references.columns[0]!);
    return `(SELECT r.${target} FROM ${referenced.from} AS r ORDER BY r.${target} LIMIT 1)`;
  }
  switch (column.codec.kind) {
    case 'int':
    case 'bigint':
    case 'numeric':
    case 'float':
      return '0';
    case 'bool':
      return 'false';
    case 'json':
      return `'{}'`;
    case 'array':
      return `'{}'`;
    case 'bytea':
      return `''`;
    case 'timestamptz':
    case 'timestamp':
      return 'now()';
  }
  if (TEXT_KEY.test(column.type)) return `''`;
  if (column.type === 'uuid') return 'gen_random_uuid()';
  if (column.type === 'date') return 'current_date';
  if (/^time\b/.test(column.type)) return `'00:00'`;
  if (column.type === 'interval') return `'0'`;
  // An enum (NULL for any other type): its first label, cast by the caller.
  return `(SELECT e.enumlabel FROM pg_enum AS e WHERE e.enumtypid = ${sqlLiteral(column.type)}::regtype ORDER BY e.enumsortorder LIMIT 1)`;
}

function sqlLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

function freshTextKeySql(column: string): string {
  const key = `p.${quoteIdent(column)}`;
  const prefix = `greatest(1, coalesce(length(substring(${key} from '^[A-Za-z][A-Za-z0-9]*[_-]')), 0))`;
  return `(SELECT string_agg(CASE WHEN x.i <= ${prefix} OR x.c !~ '[0-9A-Za-z]' THEN x.c
      WHEN x.c ~ '[0-9]' THEN chr(48 + floor(random() * 10)::int)
      WHEN x.c ~ '[a-z]' THEN chr(97 + floor(random() * 26)::int)
      ELSE chr(65 + floor(random() * 26)::int) END, '' ORDER BY x.i)
    FROM previous AS p, regexp_split_to_table(${key}, '') WITH ORDINALITY AS x(c, i))`;
}

// One output column gets the response as it is; several take a JSON object's fields of their names when the response
// is one, else the first gets the text.
function outputValues(response: string, output: readonly string[]): Record<string, unknown> {
  if (output.length === 0) return {};
  if (output.length > 1) {
    try {
      const parsed = JSON.parse(response) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        return Object.fromEntries(
          output
            .filter((name) => Object.hasOwn(parsed, name))
            .map((name) => [name, (parsed as Record<string, unknown>)[name]]),
        );
    } catch {
      // Plain text: the first output column.
    }
  }
  return { [output[0]!]: response };
}
