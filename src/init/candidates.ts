import type { Catalog, ColumnInfo, TableInfo } from '../db/catalog-types.js';
import { type Link, linksOf, pathUp, tablesBelow } from './game-shape.js';
import { isMigrationTable } from './migration-tables.js';
import { isInteger, NO_FACTS, ROLE_COLUMN, TURN_COLUMN, type InitFacts } from './read-facts.js';

/** One numbered answer `init` offers, with why it is offered. */
export interface Candidate {
  value: string;
  why: string;
  /** How strongly it is offered, where candidates are ranked (turns tables): what `--yes` compares. */
  score?: number;
}

const TURNS_NAME = /turn|message|move|event|round|entr(y|ies)|post|action|log/i;
const ROOT_NAME = /campaign|game|session|adventure|story|conversation|chat|thread|world|run|room/i;
const ORDER_NAME = /turn|number|num|seq|order|index|idx|position|step|created|sent|at$/i;
const ORDER_EXACT = /^(turn|turn_?number|seq|sequence|position|number|idx|index|step|ordinal)$/i;
const TIME_NAME = /^(created_?at|sent_?at|played_?at|inserted_?at|timestamp|time)$|_at$|At$/;
const INPUT_EXACT = /^(content|text|message|player_?input|playerInput|body|input|prompt)$/i;
const INPUT_NAME = /input|player|prompt|content|message|text|command|action|said|body/i;
const OUTPUT_NAME = /narrat|response|output|reply|answer|assistant|summary|gm|master/i;
/** Values of a role column that mark the player's rows. */
const INPUT_ROLE = /^(action|actions|player|user|human|input|command|move|say|said)$/i;
/** Values of a role column that mark the game master's answer. */
const OUTPUT_ROLE =
  /^(narration|narrator|narrative|gm|dm|game_?master|assistant|ai|bot|model|response|reply|answer|output)$/i;
// Text a person or a model writes (not uuids, enums or arrays, which the catalog also decodes as text).
const TEXT_TYPE = /^(text|character varying|varchar|citext|character)\b(?!.*\[\])/;
/** Tables of players and accounts: shared, never a campaign's root. */
const SHARED_NAME = /^(users?|accounts?|profiles?|members?|customers?|people|persons?)$/i;

// Tables named like the people who play, as a root candidate: accounts (`auth_user`'s last word too), and players
// that own campaigns (a table named like a campaign hangs below them). A player row may be a campaign's own, as
// Prisma games keep them, so this only ranks roots and never makes a table shared.
const PLAYER_NAME = /^players?$/i;
function namedLikePeople(table: TableInfo, below: readonly string[], catalog: Catalog): boolean {
  const last = table.table.split(/[_.]/).at(-1) ?? table.table;
  if (SHARED_NAME.test(table.table) || SHARED_NAME.test(last)) return true;
  return PLAYER_NAME.test(table.table) && below.some((name) => ROOT_NAME.test(catalog.tables.get(name)?.table ?? name));
}

/** Root candidates: tables other tables hang below, ranked by how many do (tables of accounts and players last). */
export function rootCandidates(catalog: Catalog): Candidate[] {
  const links = linksOf(catalog);
  const ranked = [...catalog.tables.values()]
    .filter((table) => !isMigrationTable(table) && table.primaryKey.length === 1)
    .map((table) => ({ table, below: [...tablesBelow(table.name, links).keys()].slice(1) }))
    .filter((entry) => entry.below.length > 0);
  const rank = (entry: (typeof ranked)[number]): number =>
    (namedLikePeople(entry.table, entry.below, catalog) ? -1000 : 0) +
    entry.below.length * 2 +
    (ROOT_NAME.test(entry.table.table) ? 1 : 0);
  return ranked
    .sort((a, b) => rank(b) - rank(a) || a.table.name.localeCompare(b.table.name))
    .map(({ table, below }) => ({
      value: table.name,
      why: `${below.length} table${below.length === 1 ? '' : 's'} below it (${shortList(below)})${namedLikePeople(table, below, catalog) ? '; named like accounts, so likely shared' : ''}`,
    }));
}

/**
 * Turns candidates: tables below the root with an order column. A chat history (a role column holding `user` and
 * `assistant` values) first, its shape saying more than a name (`faction_action` is not turns); then names.
 */
export function turnsCandidates(catalog: Catalog, root: string, facts: InitFacts = NO_FACTS): Candidate[] {
  const links = linksOf(catalog);
  const below = tablesBelow(root, links);
  const ranked: { table: TableInfo; score: number; why: string }[] = [];
  for (const [name, depth] of below) {
    const table = catalog.tables.get(name);
    if (!table || depth === 0 || isMigrationTable(table)) continue;
    if (!table.columns.some((column) => isOrderColumn(column))) continue;
    let score = 0;
    const why: string[] = [];
    const path = pathUp(name, root, links, below) ?? [];
    why.push(
      depth === 1
        ? `a foreign key to ${root}`
        : `${depth} foreign keys below ${root} (via ${path
            .slice(0, -1)
            .map((link) => link.to)
            .join(', ')})`,
    );
    const texts = textColumns(table);
    const chat = chatRoles(table, facts);
    if (chat && texts.length > 0) {
      score += 8;
      why.push(`a ${chat.column} column holding ${chat.input} and ${chat.output} rows`);
    }
    if (TURNS_NAME.test(table.table)) {
      score += 4;
      why.push('named like turns');
    }
    if (texts.some((column) => INPUT_NAME.test(column))) {
      score += 2;
      why.push(`text ${texts.find((column) => INPUT_NAME.test(column))}`);
    }
    if (table.columns.some((column) => ROLE_COLUMN.test(column.name))) score += 1;
    if (table.columns.some((column) => isOrderColumn(column) && ORDER_EXACT.test(column.name))) score += 1;
    ranked.push({ table, score: score - depth * 0.1, why: why.join(', ') });
  }
  return ranked
    .sort((a, b) => b.score - a.score || a.table.name.localeCompare(b.table.name))
    .map(({ table, why, score }) => ({ value: table.name, why, score }));
}

// A role column whose values (read from the data, or an enum's labels) hold both a player's and a game master's.
function chatRoles(table: TableInfo, facts: InitFacts): { column: string; input: string; output: string } | undefined {
  for (const column of table.columns) {
    if (!ROLE_COLUMN.test(column.name)) continue;
    const key = `${table.name}.${column.name}`;
    const values = facts.roleValues.get(key) ?? facts.enums.get(key) ?? [];
    const input = values.find((value) => INPUT_ROLE.test(value));
    const output = values.find((value) => OUTPUT_ROLE.test(value));
    if (input !== undefined && output !== undefined) return { column: column.name, input, output };
  }
  return undefined;
}

/** Order candidates: integer and timestamp columns; a turn number first, a timestamp first when rows share a turn. */
export function orderCandidates(turns: TableInfo, groupedBy?: string): Candidate[] {
  const fkColumns = new Set(turns.foreignKeys.flatMap((fk) => fk.columns));
  return turns.columns
    .filter((column) => isOrderColumn(column) && !fkColumns.has(column.name))
    .map((column) => {
      const time = column.codec.kind === 'timestamp' || column.codec.kind === 'timestamptz' || column.type === 'date';
      let score = 0;
      let why = time ? 'a timestamp' : `${column.type}`;
      if (column.name === groupedBy) {
        score -= 2;
        why += ', the turn number rows share (it does not order rows within a turn)';
      } else if (ORDER_EXACT.test(column.name)) {
        score += 4;
        why += ', named like a turn number or position';
      } else if (time && TIME_NAME.test(column.name)) {
        score += groupedBy ? 6 : 3;
        why += ', named like when the row was written';
      }
      if (ORDER_NAME.test(column.name)) score += 1;
      if (turns.primaryKey.includes(column.name)) {
        score -= 1;
        why += ', the primary key';
      }
      return { value: column.name, why, score };
    })
    .sort(
      (a, b) =>
        b.score - a.score ||
        turns.columns.findIndex((c) => c.name === a.value) - turns.columns.findIndex((c) => c.name === b.value),
    )
    .map(({ value, why }) => ({ value, why }));
}

/**
 * The game's own turn column candidates: integer columns named like a turn. `proposed`: one whose values rows share
 * under one `parent` row (the turns' foreign key toward the campaign); `unchecked`: one of a table with no rows.
 */
export function turnColumnCandidates(
  turns: TableInfo,
  facts: InitFacts,
  parent: readonly string[] = [],
): { candidates: Candidate[]; proposed?: string; unchecked?: string } {
  const candidates: Candidate[] = [];
  let proposed: string | undefined;
  let unchecked: string | undefined;
  for (const column of turns.columns) {
    if (!isInteger(column) || !TURN_COLUMN.test(column.name) || column.generated) continue;
    const shared = facts.turnSharing.get(`${turns.name}.${column.name}`);
    const most = shared?.most[parent.join(',')] ?? 0;
    if (most > 1) {
      const under = parent.length > 0 ? ` under one ${parentTable(turns, parent)}` : '';
      candidates.unshift({ value: column.name, why: `rows share its values (up to ${most} rows in one turn${under})` });
      proposed ??= column.name;
    } else if (shared && shared.rows > 0) {
      candidates.push({ value: column.name, why: 'named like a turn, but each row has its own value' });
    } else {
      candidates.push({ value: column.name, why: 'named like a turn (no rows to check)' });
      unchecked ??= column.name;
    }
  }
  return {
    candidates,
    ...(proposed !== undefined ? { proposed } : {}),
    ...(unchecked !== undefined ? { unchecked } : {}),
  };
}

function parentTable(turns: TableInfo, parent: readonly string[]): string {
  return turns.foreignKeys.find((fk) => fk.columns.join() === parent.join())?.references.table ?? parent.join(', ');
}

/** A role column of the turns table and its values, as a candidate answer `column=INPUT,...`. */
export interface RoleCandidate extends Candidate {
  column: string;
  values: string[];
  input: string[];
  output?: string | undefined;
  enumLabels?: string[] | undefined;
}

/** Role candidates: text or enum columns named type/role/kind/speaker, with the values that read like the player's. */
export function roleCandidates(turns: TableInfo, facts: InitFacts): RoleCandidate[] {
  const found: RoleCandidate[] = [];
  for (const column of turns.columns) {
    if (column.codec.kind !== 'text' || column.type.endsWith('[]') || column.generated) continue;
    const key = `${turns.name}.${column.name}`;
    const labels = facts.enums.get(key);
    if (!ROLE_COLUMN.test(column.name) && !labels) continue;
    const values = labels ?? facts.roleValues.get(key) ?? [];
    const input = values.filter((value) => INPUT_ROLE.test(value));
    const output = values.find((value) => OUTPUT_ROLE.test(value));
    const kind = labels
      ? `an enum (${values.join(', ')})`
      : values.length > 0
        ? `text with values ${values.join(', ')}`
        : 'text';
    found.push({
      value: input.length > 0 ? `${column.name}=${input.join(',')}` : column.name,
      why:
        input.length > 0 ? `${kind}; ${input.join(', ')} read${input.length === 1 ? 's' : ''} like the player's` : kind,
      column: column.name,
      values,
      input,
      output,
      enumLabels: labels,
    });
  }
  return found.sort((a, b) => Number(b.input.length > 0) - Number(a.input.length > 0));
}

/** Input candidates: the turns table's text columns, named like what a player types first, the answer's last. */
export function inputCandidates(turns: TableInfo, roleColumn?: string): Candidate[] {
  return textColumns(turns)
    .filter((column) => column !== roleColumn)
    .map((column, index) => {
      const score =
        (INPUT_EXACT.test(column) ? 3 : 0) + (INPUT_NAME.test(column) ? 2 : 0) - (OUTPUT_NAME.test(column) ? 3 : 0);
      const why = OUTPUT_NAME.test(column)
        ? 'text, named like the answer'
        : INPUT_NAME.test(column)
          ? 'text, named like what the player types'
          : 'text';
      return { value: column, why, score, index };
    })
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ value, why }) => ({ value, why }));
}

/** Shared candidates: tables the owned ones reference that no campaign owns (accounts first). */
export function sharedCandidates(
  catalog: Catalog,
  owned: ReadonlyMap<string, number>,
  extra: readonly Link[],
): Candidate[] {
  const found = new Map<string, string>();
  for (const link of linksOf(catalog, extra)) {
    if (!owned.has(link.from) || owned.has(link.to) || found.has(link.to)) continue;
    const target = catalog.tables.get(link.to);
    if (!target || isMigrationTable(target)) continue;
    found.set(link.to, `${link.from} references it (${link.columns.join(', ')}) and no campaign owns it`);
  }
  for (const name of owned.keys()) {
    const table = catalog.tables.get(name);
    if (table && SHARED_NAME.test(table.table) && owned.get(name)! > 0 && !found.has(name))
      found.set(name, 'named like accounts: listed, a campaign does not own it');
  }
  return [...found]
    .sort(([a], [b]) => Number(SHARED_NAME.test(b)) - Number(SHARED_NAME.test(a)) || a.localeCompare(b))
    .map(([value, why]) => ({ value, why }));
}

/** The text columns a person or a model writes, keys and generated columns left out. */
export function textColumns(table: TableInfo): string[] {
  const keys = new Set([...table.primaryKey, ...table.foreignKeys.flatMap((foreignKey) => foreignKey.columns)]);
  return table.columns
    .filter((column) => TEXT_TYPE.test(column.type) && !keys.has(column.name) && !column.generated)
    .map((column) => column.name);
}

/** The column a SUT's answer likely goes in (for the starter SUT and case file). */
export function outputColumn(turns: TableInfo): string | undefined {
  return textColumns(turns).find((column) => OUTPUT_NAME.test(column));
}

/** Whether a column can order turns: a number, a timestamp or a date, not generated. */
export function isOrderColumn(column: ColumnInfo): boolean {
  return (
    (['int', 'bigint', 'numeric', 'float', 'timestamp', 'timestamptz'].includes(column.codec.kind) ||
      column.type === 'date') &&
    !column.generated
  );
}

function shortList(names: readonly string[]): string {
  return names.length <= 4 ? names.join(', ') : `${names.slice(0, 4).join(', ')}, ...`;
}
