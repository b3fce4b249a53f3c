import {
  inputCandidates,
  orderCandidates,
  roleCandidates,
  rootCandidates,
  sharedCandidates,
  turnColumnCandidates,
  turnsCandidates,
} from './candidates.js';
import type { TableInfo } from '../db/catalog-types.js';
import { type ChooserState, type GameQuestion, hintOf, type QuestionId } from './chooser-state.js';
import { linksOf, pathUp, tablesBelow } from './game-shape.js';

/** The question `id` as it stands after the answers so far: its candidates and its fallback; its flag is `--ID`. */
export function questionFor(state: ChooserState, id: QuestionId): GameQuestion {
  return { id, flag: `--${id}`, ...QUESTIONS[id](state, hintOf(state.hints, id)) };
}

// Each question by its id, made from the answers so far and the hint a flag or the config gives.
const QUESTIONS: Record<
  QuestionId,
  (state: ChooserState, hint: string | undefined) => Omit<GameQuestion, 'id' | 'flag'>
> = {
  root: (state, hint) => {
    let candidates = rootCandidates(state.catalog);
    if (state.hints.turns) {
      const links = linksOf(state.catalog);
      const holds = (name: string) => tablesBelow(name, links).has(state.hints.turns!);
      candidates = [...candidates.filter((c) => holds(c.value)), ...candidates.filter((c) => !holds(c.value))];
    }
    return {
      prompt: 'campaign table (one row = one campaign)',
      candidates,
      fallback: hint ?? candidates[0]?.value,
      ask: true,
      missing:
        'no table of the database looks like turns of a campaign; name them with --root TABLE --turns TABLE --order COLUMN --input COLUMN',
    };
  },
  key: (state, hint) => {
    const single = state.chosen.root!.primaryKey.length === 1 ? state.chosen.root!.primaryKey[0] : undefined;
    const candidates = [
      ...(single ? [{ value: single, why: 'the primary key' }] : []),
      ...state.chosen.root!.uniqueKeys.filter((k) => k.length === 1).map((k) => ({ value: k[0]!, why: 'unique' })),
    ];
    return {
      prompt: `key column of ${state.chosen.root!.name}`,
      candidates,
      fallback: hint ?? single,
      ask: single === undefined,
      missing: `${state.chosen.root!.name} has no single-column primary key; name its key with --key COLUMN`,
    };
  },
  turns: (state, hint) => {
    const candidates = turnsCandidates(state.catalog, state.chosen.root!.name, state.facts);
    // A guess taken without asking (--yes) must be clearly ahead: a tie with the next is a question for the author.
    const [first, second] = candidates;
    const clear = !first || !second || (first.score ?? 0) - (second.score ?? 0) >= 2;
    return {
      prompt: `turns table (below ${state.chosen.root!.name})`,
      candidates,
      fallback: hint ?? (clear ? first?.value : undefined),
      ask: true,
      missing:
        first && second && !clear
          ? `${first.value} and ${second.value} look as much like the turns table (${
              first.why === second.why
                ? `each: ${first.why}`
                : `${first.value}: ${first.why}; ${second.value}: ${second.why}`
            }); name it with --turns TABLE`
          : `no table below ${state.chosen.root!.name} has an order column; name the turns with --turns TABLE`,
    };
  },
  order: (state, hint) => {
    const candidates = orderCandidates(state.chosen.turns!, groupedTurn(state, state.chosen.turns!));
    return {
      prompt: `order column of ${state.chosen.turns!.name} (integer or timestamp)`,
      candidates,
      fallback: hint ?? candidates[0]?.value,
      ask: true,
      missing: `name the order column of ${state.chosen.turns!.name} with --order COLUMN`,
    };
  },
  turn: (state, hint) => {
    const { candidates } = turnColumnCandidates(
      state.chosen.turns!,
      state.facts,
      parentColumns(state, state.chosen.turns!),
    );
    return {
      prompt: `the game's own turn column of ${state.chosen.turns!.name}, rows sharing a value are one turn (or none)`,
      candidates: [...candidates, { value: 'none', why: 'one turn is one row, or starts at each input row' }],
      fallback: hint ?? groupedTurn(state, state.chosen.turns!) ?? 'none',
      // No column named like a turn: nothing to choose but none (a flag may still name one).
      ask: candidates.length > 0,
      missing: '',
    };
  },
  role: (state, hint) => {
    const roles = roleCandidates(state.chosen.turns!, state.facts);
    const proposed = roles.find((role) => role.input.length > 0);
    // A role column with no rows yet may hold the player's and the GM's rows: `none` would make each one a turn.
    const unread = proposed
      ? undefined
      : roles.find((role) => state.facts.unreadRoles?.has(`${state.chosen.turns!.name}.${role.column}`));
    const none = state.chosen.turn || unread ? undefined : 'none';
    return {
      prompt: `which rows are the player's input: COLUMN=VALUE,... (or none)`,
      candidates: [
        ...roles,
        ...(state.chosen.turn ? [] : [{ value: 'none', why: 'every row of the turns table is a turn' }]),
      ],
      fallback: hint ?? proposed?.value ?? none,
      ask: roles.length > 0 || state.chosen.turn !== undefined,
      missing:
        unread && !state.chosen.turn
          ? `${state.chosen.turns!.name}.${unread.column} has no rows yet to tell the player's rows by; name them with --role ${unread.column}=VALUE (or --role none: every row is a turn)`
          : `rows sharing ${state.chosen.turn ?? 'a turn'} need --role COLUMN=VALUE naming the player's rows`,
    };
  },
  input: (state, hint) => {
    const candidates = inputCandidates(state.chosen.turns!, state.chosen.role?.column);
    return {
      prompt: `player input columns of ${state.chosen.turns!.name} (comma-separated)`,
      candidates,
      fallback: hint ?? candidates[0]?.value,
      ask: true,
      missing: `name the player's input columns of ${state.chosen.turns!.name} with --input COLUMN`,
    };
  },
  shared: (state, hint) => {
    const links = linksOf(state.catalog, state.referenceLinks);
    const owned = tablesBelow(state.chosen.root!.name, links);
    const candidates = sharedCandidates(state.catalog, owned, state.referenceLinks).filter(
      (c) => c.value !== state.chosen.root!.name && c.value !== state.chosen.turns!.name,
    );
    const referenced = candidates.filter((c) => !owned.has(c.value)).map((c) => c.value);
    return {
      prompt: 'shared tables, captured when referenced, never owned (comma-separated, or none)',
      candidates: [...candidates, { value: 'none', why: 'no table is shared' }],
      fallback: hint ?? (referenced.length > 0 ? referenced.join(',') : 'none'),
      ask: true,
      missing: '',
    };
  },
};

/**
 * The turn column rows share (or, in a table with no rows yet, one named so), proposed only when a role column can
 * say which of a turn's rows are the player's.
 */
function groupedTurn(state: ChooserState, turns: TableInfo): string | undefined {
  const { proposed, unchecked } = turnColumnCandidates(turns, state.facts, parentColumns(state, turns));
  const roles = roleCandidates(turns, state.facts).some((role) => role.input.length > 0);
  return roles ? (proposed ?? unchecked) : undefined;
}

/** The columns of the turns table's first link toward the campaign (rows of one turn share its parent). */
export function parentColumns(state: ChooserState, turns: TableInfo): string[] {
  const links = linksOf(state.catalog);
  const root = state.chosen.root!.name;
  return pathUp(turns.name, root, links, tablesBelow(root, links))?.[0]?.columns ?? [];
}
