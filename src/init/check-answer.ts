import { didYouMean } from '../config/config-place.js';
import type { TableInfo } from '../db/catalog-types.js';
import { isOrderColumn, roleCandidates } from './candidates.js';
import type { ChooserState, GameQuestion } from './chooser-state.js';
import { linksOf, tablesBelow } from './game-shape.js';
import { isMigrationTable } from './migration-tables.js';
import { isInteger } from './read-facts.js';

/** Checks an answer against the catalog and the answers before it; stores it in `state.chosen`, or says what is wrong. */
export function checkAnswer(state: ChooserState, question: GameQuestion, text: string): string | undefined {
  const names = text.split(',').filter(Boolean);
  const tableNames = [...state.catalog.tables.keys()];
  const table = (name: string): TableInfo | string =>
    state.catalog.tables.get(name) ??
    `${name}: no such table in the database${didYouMean(name, tableNames)} (it has ${tableNames.join(', ') || 'no tables'})`;
  const column = (info: TableInfo, name: string): string | undefined => {
    if (info.columns.some((candidate) => candidate.name === name)) return undefined;
    const columns = info.columns.map((candidate) => candidate.name);
    return `${name}: ${info.name} has no such column${didYouMean(name, columns)} (it has ${columns.join(', ')})`;
  };
  const { root, turns } = state.chosen;
  switch (question.id) {
    case 'root': {
      const found = table(text);
      if (typeof found === 'string') return found;
      if (isMigrationTable(found)) return `${text}: a migration tool's table, not a game's`;
      if (tablesBelow(found.name, linksOf(state.catalog)).size < 2)
        return `${text}: no table has a foreign key to it, so no turns hang below it`;
      state.chosen.root = found;
      return undefined;
    }
    case 'key': {
      const problem = column(root!, text);
      if (problem) return problem;
      state.chosen.key = text;
      return undefined;
    }
    case 'turns': {
      const found = table(text);
      if (typeof found === 'string') return found;
      const below = tablesBelow(root!.name, linksOf(state.catalog));
      if (found.name === root!.name || !below.has(found.name)) {
        const names = [...below.keys()].slice(1);
        return `${text}: no foreign-key path leads from it to ${root!.name} (below ${root!.name}: ${names.join(', ') || 'nothing'})`;
      }
      if (!found.columns.some(isOrderColumn)) return `${text}: it has no integer or timestamp column to order turns by`;
      state.chosen.turns = found;
      return undefined;
    }
    case 'order': {
      const problem = column(turns!, text);
      if (problem) return problem;
      const info = turns!.columns.find((candidate) => candidate.name === text)!;
      if (!isOrderColumn(info))
        return `${text}: ${turns!.name}.${text} is ${info.type}; use an integer or timestamp column`;
      state.chosen.order = text;
      return undefined;
    }
    case 'turn': {
      if (text === '') {
        state.chosen.turn = undefined;
        return undefined;
      }
      const problem = column(turns!, text);
      if (problem) return problem;
      const info = turns!.columns.find((candidate) => candidate.name === text)!;
      if (!isInteger(info))
        return `${text}: ${turns!.name}.${text} is ${info.type}; the game's turn column is an integer`;
      state.chosen.turn = text;
      return undefined;
    }
    case 'role': {
      if (text === '') {
        if (state.chosen.turn)
          return `rows sharing ${state.chosen.turn} are one turn: name the player's rows as COLUMN=VALUE`;
        state.chosen.role = undefined;
        return undefined;
      }
      const [name = '', values = ''] = text.split('=', 2);
      const problem = column(turns!, name.trim());
      if (problem) return problem;
      const roles = roleCandidates(turns!, state.facts);
      const known = roles.find((role) => role.column === name.trim());
      const input = values
        .split(',')
        .map((value) => value.trim())
        .filter(Boolean);
      if (input.length === 0) {
        const seen = known?.values.length ? ` (it has ${known.values.join(', ')})` : '';
        return `${text}: name the values marking the player's rows, as ${name.trim()}=VALUE${seen}`;
      }
      const info = turns!.columns.find((candidate) => candidate.name === name.trim())!;
      if (info.codec.kind !== 'text' || info.type.endsWith('[]'))
        return `${name.trim()}: ${turns!.name}.${name.trim()} is ${info.type}; a role column holds text or an enum`;
      const labels = known?.enumLabels;
      const wrong = labels ? input.find((value) => !labels.includes(value)) : undefined;
      if (wrong !== undefined)
        return `${wrong}: not a value of ${turns!.name}.${name.trim()}${didYouMean(wrong, labels!)} (it has ${labels!.join(', ')})`;
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
    }
    case 'input': {
      if (names.length === 0) return 'name at least one input column';
      for (const name of names) {
        const problem = column(turns!, name);
        if (problem) return problem;
      }
      state.chosen.input = names;
      return undefined;
    }
    case 'shared': {
      for (const name of names) {
        const found = table(name);
        if (typeof found === 'string') return found;
        if (found.name === root!.name || found.name === turns!.name)
          return `${name}: the ${found.name === root!.name ? 'campaign' : 'turns'} table is owned, not shared`;
      }
      state.chosen.shared = names;
      return undefined;
    }
  }
}
