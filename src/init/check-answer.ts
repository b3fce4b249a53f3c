import { didYouMean } from '../config/issue-lines.js';
import type { ColumnInfo, TableInfo } from '../db/catalog-types.js';
import { isOrderColumn, roleCandidates } from './candidates.js';
import type { ChooserState, GameQuestion, QuestionId } from './chooser-state.js';
import { linksOf, tablesBelow } from './game-shape.js';
import { isMigrationTable } from './migration-tables.js';
import { isInteger } from './read-facts.js';

/** Checks an answer against the catalog and the answers before it; stores it in `state.chosen`, or says what is wrong. */
export function checkAnswer(state: ChooserState, question: GameQuestion, text: string): string | undefined {
  return CHECKS[question.id](state, text, text.split(',').filter(Boolean));
}

/** A table of the catalog by name, or what is wrong with the name. */
function tableIn(state: ChooserState, name: string): TableInfo | string {
  const tableNames = [...state.catalog.tables.keys()];
  return (
    state.catalog.tables.get(name) ??
    `${name}: no such table in the database${didYouMean(name, tableNames)} (it has ${tableNames.join(', ') || 'no tables'})`
  );
}

/** A column of a table by name, or what is wrong with the name. */
function columnIn(info: TableInfo, name: string): ColumnInfo | string {
  const columns = info.columns.map((candidate) => candidate.name);
  return (
    info.columns.find((candidate) => candidate.name === name) ??
    `${name}: ${info.name} has no such column${didYouMean(name, columns)} (it has ${columns.join(', ')})`
  );
}

/** One question's check: the answer's text, and its comma-separated names. */
type AnswerCheck = (state: ChooserState, text: string, names: string[]) => string | undefined;

// Each question's check, by its id: the answer stored in `state.chosen` when it holds.
const CHECKS: Record<QuestionId, AnswerCheck> = {
  root: (state, text) => {
    const found = tableIn(state, text);
    if (typeof found === 'string') return found;
    if (isMigrationTable(found)) return `${text}: a migration tool's table, not a game's`;
    if (tablesBelow(found.name, linksOf(state.catalog)).size < 2)
      return `${text}: no table has a foreign key to it, so no turns hang below it`;
    state.chosen.root = found;
    return undefined;
  },
  key: (state, text) => {
    const found = columnIn(state.chosen.root!, text);
    if (typeof found === 'string') return found;
    state.chosen.key = text;
    return undefined;
  },
  turns: (state, text) => {
    const found = tableIn(state, text);
    if (typeof found === 'string') return found;
    const below = tablesBelow(state.chosen.root!.name, linksOf(state.catalog));
    if (found.name === state.chosen.root!.name || !below.has(found.name)) {
      const names = [...below.keys()].slice(1);
      return `${text}: no foreign-key path leads from it to ${state.chosen.root!.name} (below ${state.chosen.root!.name}: ${names.join(', ') || 'nothing'})`;
    }
    if (!found.columns.some(isOrderColumn)) return `${text}: it has no integer or timestamp column to order turns by`;
    state.chosen.turns = found;
    return undefined;
  },
  order: (state, text) => {
    const info = columnIn(state.chosen.turns!, text);
    if (typeof info === 'string') return info;
    if (!isOrderColumn(info))
      return `${text}: ${state.chosen.turns!.name}.${text} is ${info.type}; use an integer or timestamp column`;
    state.chosen.order = text;
    return undefined;
  },
  turn: (state, text) => {
    if (text === '') {
      state.chosen.turn = undefined;
      return undefined;
    }
    const info = columnIn(state.chosen.turns!, text);
    if (typeof info === 'string') return info;
    if (!isInteger(info))
      return `${text}: ${state.chosen.turns!.name}.${text} is ${info.type}; the game's turn column is an integer`;
    state.chosen.turn = text;
    return undefined;
  },
  role: (state, text) => {
    if (text === '') {
      if (state.chosen.turn)
        return `rows sharing ${state.chosen.turn} are one turn: name the player's rows as COLUMN=VALUE`;
      state.chosen.role = undefined;
      return undefined;
    }
    const [name = '', values = ''] = text.split('=', 2);
    const info = columnIn(state.chosen.turns!, name.trim());
    if (typeof info === 'string') return info;
    const roles = roleCandidates(state.chosen.turns!, state.facts);
    const known = roles.find((role) => role.column === name.trim());
    const input = values
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean);
    if (input.length === 0) {
      const seen = known?.values.length ? ` (it has ${known.values.join(', ')})` : '';
      return `${text}: name the values marking the player's rows, as ${name.trim()}=VALUE${seen}`;
    }
    if (info.codec.kind !== 'text' || info.type.endsWith('[]'))
      return `${name.trim()}: ${state.chosen.turns!.name}.${name.trim()} is ${info.type}; a role column holds text or an enum`;
    const labels = known?.enumLabels;
    const wrong = labels ? input.find((value) => !labels.includes(value)) : undefined;
    if (wrong !== undefined)
      return `${wrong}: not a value of ${state.chosen.turns!.name}.${name.trim()}${didYouMean(wrong, labels!)} (it has ${labels!.join(', ')})`;
    const output = known?.values.find((value) => !input.includes(value) && known.output === value);
    state.chosen.role = {
      value: text,
      why: '',
      column: name.trim(),
      values: known?.values ?? [],
      input,
      output,
      enumLabels: labels,
    };
    return undefined;
  },
  input: (state, _text, names) => {
    if (names.length === 0) return 'name at least one input column';
    for (const name of names) {
      const found = columnIn(state.chosen.turns!, name);
      if (typeof found === 'string') return found;
    }
    state.chosen.input = names;
    return undefined;
  },
  shared: (state, _text, names) => {
    for (const name of names) {
      const found = tableIn(state, name);
      if (typeof found === 'string') return found;
      if (found.name === state.chosen.root!.name || found.name === state.chosen.turns!.name)
        return `${name}: the ${found.name === state.chosen.root!.name ? 'campaign' : 'turns'} table is owned, not shared`;
    }
    state.chosen.shared = names;
    return undefined;
  },
};
