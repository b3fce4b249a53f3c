import type { Catalog, TableInfo } from '../db/catalog-types.js';
import type { Candidate, RoleCandidate } from './candidates.js';
import type { Link } from './game-shape.js';
import type { InitFacts } from './read-facts.js';
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

/** What the questions are asked over: the catalog, its facts, the flags, and the answers taken so far. */
export interface ChooserState {
  catalog: Catalog;
  facts: InitFacts;
  hints: GameChoices;
  /** References `init` proposes (columns named like a key with no foreign key): they make rows owned too. */
  referenceLinks: Link[];
  chosen: {
    root?: TableInfo;
    key?: string;
    turns?: TableInfo;
    order?: string;
    turn?: string | undefined;
    role?: RoleCandidate | undefined;
    input?: string[];
    shared?: string[];
  };
}

/** A flag's value for a question, lists joined with commas. */
export function hintOf(hints: GameChoices, id: QuestionId): string | undefined {
  const value = hints[id];
  return Array.isArray(value) ? value.join(',') : value;
}
