import { didYouMean } from '../config/config-place.js';
import type { Catalog, TableInfo } from '../db/catalog-types.js';
import {
  type Candidate,
  inputCandidates,
  isOrderColumn,
  orderCandidates,
  type RoleCandidate,
  roleCandidates,
  rootCandidates,
  sharedCandidates,
  turnColumnCandidates,
  turnsCandidates,
} from './candidates.js';
import { type Declarations, proposeDeclarations, proposeReferences } from './declarations.js';
import { linksOf, pathUp, tablesBelow } from './game-shape.js';
import { isMigrationTable } from './migration-tables.js';
import { isInteger, type InitFacts } from './read-facts.js';
import type { SutLanguage } from './starter-sut.js';

/** What a person chose with flags (or at the prompts); anything left out is proposed from the catalog. */
export interface GameChoices {
  root?: string | undefined;
  key?: string | undefined;
  turns?: string | undefined;
  order?: string | undefined;
  /** The game's own turn column, or `none`. */
  turn?: string | undefined;
  /** `column=VALUE,...`: the role column and its values marking the player's rows, or `none`. */
  role?: string | undefined;
  input?: string[] | undefined;
  shared?: string[] | undefined;
  sut?: SutLanguage | undefined;
}

/** The game `init` settled on, with the declarations it proposes and why it chose each. */
export interface ChosenGame {
  root: { table: string; key: string };
  turns: {
    table: string;
    order: string;
    input: string[];
    turn?: string | undefined;
    role?: { column: string; input: string[]; output?: string | undefined } | undefined;
  };
  shared: string[];
  /** Migration tools' tables: never captured. */
  exclude: string[];
  declarations: Declarations;
  /** One line per answer and declaration: what was chosen and why. */
  inferred: string[];
}

/** The questions, in the order they are asked (each one's candidates depend on the answers before it). */
export const QUESTION_IDS = ['root', 'key', 'turns', 'order', 'turn', 'role', 'input', 'shared'] as const;
/** One of `QUESTION_IDS`. */
export type QuestionId = (typeof QUESTION_IDS)[number];

/** A question of `init`, with its numbered candidates and the answer taken when none is given. */
export interface GameQuestion {
  id: QuestionId;
  flag: string;
  prompt: string;
  candidates: Candidate[];
  /** The answer taken on an empty reply (a flag's value, else the best candidate); undefined: one is needed. */
  fallback: string | undefined;
  /** Whether a prompt asks it: the key of a root with a one-column primary key is not asked. */
  ask: boolean;
  /** What a non-interactive init says when there is no answer. */
  missing: string;
}

const NONE = /^(none|no|-)$/i;
const LISTS = new Set<QuestionId>(['input', 'shared']);
const OPTIONAL = new Set<QuestionId>(['turn', 'role', 'shared']);

/**
 * Asks the game's questions one at a time and checks each answer as it is given: `next()` is the current question,
 * `answer(text)` takes a reply (a candidate's number, a name, `none`, or empty for the fallback) and returns why it
 * is wrong, or undefined when it is taken; `result()` is the game once every question is answered.
 */
export class GameChooser {
  private readonly chosen: {
    root?: TableInfo;
    key?: string;
    turns?: TableInfo;
    order?: string;
    turn?: string | undefined;
    role?: RoleCandidate | undefined;
    input?: string[];
    shared?: string[];
  } = {};
  private index = 0;
  private readonly inferred: string[] = [];
  private readonly referenceLinks;

  /** A chooser over the catalog and its facts; the choices (flags) are the fallbacks of their questions. */
  constructor(
    private readonly catalog: Catalog,
    private readonly facts: InitFacts,
    private readonly hints: GameChoices = {},
  ) {
    this.referenceLinks = proposeReferences(catalog).links;
  }

  /** The question to answer now, or undefined when all are answered. */
  next(): GameQuestion | undefined {
    const id = QUESTION_IDS[this.index];
    return id === undefined ? undefined : this.question(id);
  }

  /** Takes a reply to the current question; returns why it is wrong (the question stays), or undefined. */
  answer(reply: string | undefined): string | undefined {
    const question = this.next();
    if (!question) return 'every question is answered';
    const text = reply?.trim() ? reply.trim() : question.fallback;
    if (text === undefined) return `an answer is needed (${question.missing})`;
    const resolved = this.resolve(question, text);
    if (typeof resolved !== 'string' && 'error' in resolved) return resolved.error;
    const problem = this.take(question, resolved);
    if (problem) return problem;
    const shown = resolved === '' ? 'none' : resolved;
    const why = question.candidates.find((candidate) => candidate.value === shown)?.why;
    this.inferred.push(
      `${question.id} ${shown}: ${why ?? (reply?.trim() || question.fallback === this.hint(question.id) ? 'as given' : 'proposed')}`,
    );
    this.index++;
    return undefined;
  }

  /** The chosen game; call once `next()` is undefined. */
  result(): ChosenGame {
    const { root, key, turns, order, input, shared } = this.chosen;
    if (!root || !key || !turns || !order || !input || !shared) throw new Error('result() before every answer');
    const exclude = [...this.catalog.tables.values()].filter(isMigrationTable).map((table) => table.name);
    const declarations = proposeDeclarations(this.catalog, this.facts, {
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
    const grouped = turnColumnCandidates(turns, this.facts, this.parentColumns(turns)).proposed;
    if (grouped && !this.chosen.turn && !this.chosen.role) {
      missing.unshift(
        `game.turns.turn: rows of ${turns.name} share values of ${grouped}, but no column says which rows are the player's; add turn: '${grouped}' and role: { column: 'COLUMN', input: ['VALUE'] }`,
      );
    }
    const role = this.chosen.role;
    return {
      root: { table: root.name, key },
      turns: {
        table: turns.name,
        order,
        input,
        ...(this.chosen.turn ? { turn: this.chosen.turn } : {}),
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

  private hint(id: QuestionId): string | undefined {
    const value = this.hints[id];
    return Array.isArray(value) ? value.join(',') : value;
  }

  private question(id: QuestionId): GameQuestion {
    const hint = this.hint(id);
    const { root, turns } = this.chosen;
    switch (id) {
      case 'root': {
        let candidates = rootCandidates(this.catalog);
        if (this.hints.turns) {
          const links = linksOf(this.catalog);
          const holds = (name: string) => tablesBelow(name, links).has(this.hints.turns!);
          candidates = [...candidates.filter((c) => holds(c.value)), ...candidates.filter((c) => !holds(c.value))];
        }
        return {
          id,
          flag: '--root',
          prompt: 'campaign table (one row = one campaign)',
          candidates,
          fallback: hint ?? candidates[0]?.value,
          ask: true,
          missing:
            'no table of the database looks like turns of a campaign; name them with --root TABLE --turns TABLE --order COLUMN --input COLUMN',
        };
      }
      case 'key': {
        const single = root!.primaryKey.length === 1 ? root!.primaryKey[0] : undefined;
        const candidates = [
          ...(single ? [{ value: single, why: 'the primary key' }] : []),
          ...root!.uniqueKeys.filter((k) => k.length === 1).map((k) => ({ value: k[0]!, why: 'unique' })),
        ];
        return {
          id,
          flag: '--key',
          prompt: `key column of ${root!.name}`,
          candidates,
          fallback: hint ?? single,
          ask: single === undefined,
          missing: `${root!.name} has no single-column primary key; name its key with --key COLUMN`,
        };
      }
      case 'turns': {
        const candidates = turnsCandidates(this.catalog, root!.name);
        return {
          id,
          flag: '--turns',
          prompt: `turns table (below ${root!.name})`,
          candidates,
          fallback: hint ?? candidates[0]?.value,
          ask: true,
          missing: `no table below ${root!.name} has an order column; name the turns with --turns TABLE`,
        };
      }
      case 'order': {
        const candidates = orderCandidates(turns!, this.groupedTurn(turns!));
        return {
          id,
          flag: '--order',
          prompt: `order column of ${turns!.name} (integer or timestamp)`,
          candidates,
          fallback: hint ?? candidates[0]?.value,
          ask: true,
          missing: `name the order column of ${turns!.name} with --order COLUMN`,
        };
      }
      case 'turn': {
        const { candidates } = turnColumnCandidates(turns!, this.facts, this.parentColumns(turns!));
        return {
          id,
          flag: '--turn',
          prompt: `the game's own turn column of ${turns!.name}, rows sharing a value are one turn (or none)`,
          candidates: [...candidates, { value: 'none', why: 'one turn is one row, or starts at each input row' }],
          fallback: hint ?? this.groupedTurn(turns!) ?? 'none',
          ask: true,
          missing: '',
        };
      }
      case 'role': {
        const roles = roleCandidates(turns!, this.facts);
        const proposed = roles.find((role) => role.input.length > 0);
        return {
          id,
          flag: '--role',
          prompt: `which rows are the player's input: COLUMN=VALUE,... (or none)`,
          candidates: [
            ...roles,
            ...(this.chosen.turn ? [] : [{ value: 'none', why: 'every row of the turns table is a turn' }]),
          ],
          fallback: hint ?? proposed?.value ?? (this.chosen.turn ? undefined : 'none'),
          ask: true,
          missing: `rows sharing ${this.chosen.turn ?? 'a turn'} need --role COLUMN=VALUE naming the player's rows`,
        };
      }
      case 'input': {
        const candidates = inputCandidates(turns!, this.chosen.role?.column);
        return {
          id,
          flag: '--input',
          prompt: `player input columns of ${turns!.name} (comma-separated)`,
          candidates,
          fallback: hint ?? candidates[0]?.value,
          ask: true,
          missing: `name the player's input columns of ${turns!.name} with --input COLUMN`,
        };
      }
      case 'shared': {
        const links = linksOf(this.catalog, this.referenceLinks);
        const owned = tablesBelow(root!.name, links);
        const candidates = sharedCandidates(this.catalog, owned, this.referenceLinks).filter(
          (c) => c.value !== root!.name && c.value !== turns!.name,
        );
        const referenced = candidates.filter((c) => !owned.has(c.value)).map((c) => c.value);
        return {
          id,
          flag: '--shared',
          prompt: 'shared tables, captured when referenced, never owned (comma-separated, or none)',
          candidates: [...candidates, { value: 'none', why: 'no table is shared' }],
          fallback: hint ?? (referenced.length > 0 ? referenced.join(',') : 'none'),
          ask: true,
          missing: '',
        };
      }
    }
  }

  // The turn column rows share (or, in a table with no rows yet, one named so), proposed only when a role column
  // can say which of a turn's rows are the player's.
  private groupedTurn(turns: TableInfo): string | undefined {
    const { proposed, unchecked } = turnColumnCandidates(turns, this.facts, this.parentColumns(turns));
    const roles = roleCandidates(turns, this.facts).some((role) => role.input.length > 0);
    return roles ? (proposed ?? unchecked) : undefined;
  }

  // The columns of the turns table's first link toward the campaign (rows of one turn share its parent).
  private parentColumns(turns: TableInfo): string[] {
    const links = linksOf(this.catalog);
    const root = this.chosen.root!.name;
    return pathUp(turns.name, root, links, tablesBelow(root, links))?.[0]?.columns ?? [];
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

  // Checks an answer against the catalog and the answers before it; stores it, or says what is wrong.
  private take(question: GameQuestion, text: string): string | undefined {
    const names = text.split(',').filter(Boolean);
    const tableNames = [...this.catalog.tables.keys()];
    const table = (name: string): TableInfo | string =>
      this.catalog.tables.get(name) ??
      `${name}: no such table in the database${didYouMean(name, tableNames)} (it has ${tableNames.join(', ') || 'no tables'})`;
    const column = (info: TableInfo, name: string): string | undefined => {
      if (info.columns.some((candidate) => candidate.name === name)) return undefined;
      const columns = info.columns.map((candidate) => candidate.name);
      return `${name}: ${info.name} has no such column${didYouMean(name, columns)} (it has ${columns.join(', ')})`;
    };
    const { root, turns } = this.chosen;
    switch (question.id) {
      case 'root': {
        const found = table(text);
        if (typeof found === 'string') return found;
        if (isMigrationTable(found)) return `${text}: a migration tool's table, not a game's`;
        if (tablesBelow(found.name, linksOf(this.catalog)).size < 2)
          return `${text}: no table has a foreign key to it, so no turns hang below it`;
        this.chosen.root = found;
        return undefined;
      }
      case 'key': {
        const problem = column(root!, text);
        if (problem) return problem;
        this.chosen.key = text;
        return undefined;
      }
      case 'turns': {
        const found = table(text);
        if (typeof found === 'string') return found;
        const below = tablesBelow(root!.name, linksOf(this.catalog));
        if (found.name === root!.name || !below.has(found.name)) {
          const names = [...below.keys()].slice(1);
          return `${text}: no foreign-key path leads from it to ${root!.name} (below ${root!.name}: ${names.join(', ') || 'nothing'})`;
        }
        if (!found.columns.some(isOrderColumn))
          return `${text}: it has no integer or timestamp column to order turns by`;
        this.chosen.turns = found;
        return undefined;
      }
      case 'order': {
        const problem = column(turns!, text);
        if (problem) return problem;
        const info = turns!.columns.find((candidate) => candidate.name === text)!;
        if (!isOrderColumn(info))
          return `${text}: ${turns!.name}.${text} is ${info.type}; use an integer or timestamp column`;
        this.chosen.order = text;
        return undefined;
      }
      case 'turn': {
        if (text === '') {
          this.chosen.turn = undefined;
          return undefined;
        }
        const problem = column(turns!, text);
        if (problem) return problem;
        const info = turns!.columns.find((candidate) => candidate.name === text)!;
        if (!isInteger(info))
          return `${text}: ${turns!.name}.${text} is ${info.type}; the game's turn column is an integer`;
        this.chosen.turn = text;
        return undefined;
      }
      case 'role': {
        if (text === '') {
          if (this.chosen.turn)
            return `rows sharing ${this.chosen.turn} are one turn: name the player's rows as COLUMN=VALUE`;
          this.chosen.role = undefined;
          return undefined;
        }
        const [name = '', values = ''] = text.split('=', 2);
        const problem = column(turns!, name.trim());
        if (problem) return problem;
        const roles = roleCandidates(turns!, this.facts);
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
        this.chosen.role = {
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
        this.chosen.input = names;
        return undefined;
      }
      case 'shared': {
        for (const name of names) {
          const found = table(name);
          if (typeof found === 'string') return found;
          if (found.name === root!.name || found.name === turns!.name)
            return `${name}: the ${found.name === root!.name ? 'campaign' : 'turns'} table is owned, not shared`;
        }
        this.chosen.shared = names;
        return undefined;
      }
    }
  }
}
