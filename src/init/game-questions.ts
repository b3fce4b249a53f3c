import type { Catalog } from '../db/catalog-types.js';
import { turnColumnCandidates } from './candidates.js';
import { checkAnswer } from './check-answer.js';
import {
  type ChooserState,
  type GameChoices,
  type GameQuestion,
  hintOf,
  QUESTION_IDS,
  type QuestionId,
} from './chooser-state.js';
import { type Declarations, proposeDeclarations, proposeReferences } from './declarations.js';
import { isMigrationTable } from './migration-tables.js';
import { parentColumns, questionFor } from './question-for.js';
import { NO_FACTS, type InitFacts } from './read-facts.js';

export type { GameChoices } from './chooser-state.js';

/** What `init` proposes for the game config, read from the catalog; every field can be overridden by a flag. */
export interface GameGuess {
  root: { table: string; key: string };
  turns: {
    table: string;
    order: string;
    input: string[];
    turn?: string | undefined;
    role?: { column: string; input: string[]; output?: string | undefined } | undefined;
  };
  /** Tables of players and accounts: captured when referenced, never owned by a campaign. */
  shared: string[];
}

/** The game `init` settled on, with the declarations it proposes and why it chose each. */
export interface ChosenGame extends GameGuess {
  /** Migration tools' tables: never captured. */
  exclude: string[];
  declarations: Declarations;
  /** One line per answer and declaration: what was chosen and why. */
  inferred: string[];
}

const NONE = /^(none|no|-)$/i;
const LISTS = new Set<QuestionId>(['input', 'shared']);
const OPTIONAL = new Set<QuestionId>(['turn', 'role', 'shared']);

/**
 * Asks the game's questions one at a time: `next()` is the current one, `answer(reply)` (a candidate's number, a
 * name, `none`, or empty for the fallback) says why a reply is wrong; `result()` is the game once all are answered.
 */
export class GameChooser {
  private readonly state: ChooserState;
  private index = 0;
  private readonly inferred: string[] = [];

  /** A chooser over the catalog and its facts; the choices (flags) are the fallbacks of their questions. */
  constructor(catalog: Catalog, facts: InitFacts, hints: GameChoices = {}) {
    this.state = { catalog, facts, hints, referenceLinks: proposeReferences(catalog).links, chosen: {} };
  }

  /** The question to answer now, or undefined when all are answered. */
  next(): GameQuestion | undefined {
    const id = QUESTION_IDS[this.index];
    return id === undefined ? undefined : questionFor(this.state, id);
  }

  /** Takes a reply to the current question; returns why it is wrong (the question stays), or undefined. */
  answer(reply: string | undefined): string | undefined {
    const question = this.next();
    if (!question) return 'every question is answered';
    const text = reply?.trim() ? reply.trim() : question.fallback;
    if (text === undefined) return `an answer is needed (${question.missing})`;
    const resolved = this.resolve(question, text);
    if (typeof resolved !== 'string' && 'error' in resolved) return resolved.error;
    const problem = checkAnswer(this.state, question, resolved);
    if (problem) return problem;
    const shown = resolved === '' ? 'none' : resolved;
    const why = question.candidates.find((candidate) => candidate.value === shown)?.why;
    this.inferred.push(
      `${question.id} ${shown}: ${why ?? (reply?.trim() || question.fallback === hintOf(this.state.hints, question.id) ? 'as given' : 'proposed')}`,
    );
    this.index++;
    return undefined;
  }

  /** The chosen game; call once `next()` is undefined. */
  result(): ChosenGame {
    const { catalog, facts, chosen } = this.state;
    const { root, key, turns, order, input, shared } = chosen;
    if (!root || !key || !turns || !order || !input || !shared) throw new Error('result() before every answer');
    const exclude = [...catalog.tables.values()].filter(isMigrationTable).map((table) => table.name);
    const declarations = proposeDeclarations(catalog, facts, {
      root: root.name,
      turns: turns.name,
      shared,
      exclude,
    });
    const inferred = [...this.inferred];
    for (const name of exclude) inferred.push(`exclude ${name}: a migration tool's table`);
    for (const item of declarations.references) inferred.push(`references ${item.key} -> ${item.value}: ${item.why}`);
    for (const item of declarations.turnColumns) inferred.push(`turnColumns ${item.key}.${item.value}: ${item.why}`);
    for (const item of declarations.unique) inferred.push(`unique ${item.key}: ${item.why}`);
    const missing = [...declarations.missing];
    const grouped = turnColumnCandidates(turns, facts, parentColumns(this.state, turns)).proposed;
    if (grouped && !chosen.turn && !chosen.role) {
      missing.unshift(
        `game.turns.turn: rows of ${turns.name} share values of ${grouped}, but no column says which rows are the player's; add turn: '${grouped}' and role: { column: 'COLUMN', input: ['VALUE'] }`,
      );
    }
    const role = chosen.role;
    return {
      root: { table: root.name, key },
      turns: {
        table: turns.name,
        order,
        input,
        ...(chosen.turn ? { turn: chosen.turn } : {}),
        ...(role
          ? { role: { column: role.column, input: role.input, ...(role.output ? { output: role.output } : {}) } }
          : {}),
      },
      shared,
      exclude,
      declarations: { ...declarations, missing },
      inferred,
    };
  }

  // A reply as names: candidate numbers replaced by their values, `none` by ''.
  private resolve(question: GameQuestion, text: string): string | { error: string } {
    if (OPTIONAL.has(question.id) && NONE.test(text)) return '';
    const parts = LISTS.has(question.id) ? text.split(',').map((part) => part.trim()) : [text];
    const names: string[] = [];
    for (const part of parts.filter(Boolean)) {
      if (/^\d+$/.test(part)) {
        const candidate = question.candidates[Number(part) - 1];
        if (!candidate) return { error: `${part}: no such candidate (there are ${question.candidates.length})` };
        if (NONE.test(candidate.value) && OPTIONAL.has(question.id)) return '';
        names.push(candidate.value);
      } else names.push(part);
    }
    return names.join(',');
  }
}

/** The best guess for the game config (every question's proposal), or undefined when no table looks like turns. */
export function guessGame(catalog: Catalog, facts: InitFacts = NO_FACTS): GameGuess | undefined {
  const chooser = new GameChooser(catalog, facts);
  for (let question = chooser.next(); question; question = chooser.next()) {
    if (chooser.answer(undefined) !== undefined) return undefined;
  }
  const { root, turns, shared } = chooser.result();
  return { root, turns, shared };
}
