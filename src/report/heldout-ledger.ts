import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jsonLines } from '../util/json/json-lines.js';
import { TurnkitError } from '../errors.js';
import { appendWhole } from '../util/process/append-whole.js';
import { describeReadError, shownPath } from '../util/shown-path.js';

/**
 * The held-out ledger's file, in the project folder beside turnkit.config. It is committed, not kept under a cache
 * folder: the count of looks at the held-out set is the team's, and a per-machine file would let each person's looks
 * hide the others'. Lines are only ever appended, so merges of two branches' lines are unions.
 */
const HELDOUT_LEDGER = 'heldout-ledger.jsonl';

/** What a ledger line records: a look at held-out fixtures, or a debugging example made from one. */
type HeldoutUse = 'look' | 'debug-example';

/** One line of the ledger. */
export interface HeldoutLedgerEntry {
  /** When (ISO 8601, UTC). */
  at: string;
  /** Who: git user.name, else the OS user, as the command line found it. */
  who: string;
  /** The command, e.g. "report", "judge", "construct". */
  command: string;
  use: HeldoutUse;
  /** The held-out fixtures touched, by name. */
  fixtures: string[];
  /** The run directories or the source fixture touched, as the command was given them. */
  targets: string[];
}

/** How often the held-out set was looked at since it was frozen. */
export interface HeldoutLooks {
  /** When it was frozen: the ledger's first line (the first time anyone touched the held-out set). */
  frozenAt: string;
  /** Looks (run, report, view, mark, judge) since then, this one included. */
  looks: number;
  /** Debugging examples made from held-out fixtures (construct, edit). */
  debugExamples: number;
  /** Distinct people who looked. */
  people: number;
}

/** The ledger file of a project folder. */
export function heldoutLedgerFile(projectDir: string): string {
  return join(projectDir, HELDOUT_LEDGER);
}

/**
 * Appends one line for a command that touched held-out fixtures, and nothing when it touched none (returns whether
 * it wrote). The line is appended whole or not at all, so two commands at once never interleave half-lines.
 */
export async function recordHeldoutUse(
  projectDir: string,
  entry: Omit<HeldoutLedgerEntry, 'fixtures'> & { fixtures: readonly string[] },
): Promise<boolean> {
  if (entry.fixtures.length === 0) return false;
  const line: HeldoutLedgerEntry = { ...entry, fixtures: [...new Set(entry.fixtures)].sort() };
  // Committed with the project: a link there could point the append anywhere.
  await appendWhole(heldoutLedgerFile(projectDir), `${JSON.stringify(line)}\n`, { noLinks: true });
  return true;
}

/** The ledger's lines (none when there is no ledger); a line that is not an entry is an error naming file and line. */
export async function readHeldoutLedger(projectDir: string): Promise<HeldoutLedgerEntry[]> {
  const file = heldoutLedgerFile(projectDir);
  if (!existsSync(file)) return [];
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new TurnkitError('BAD_INPUT', `${shownPath(file)}: ${describeReadError(error)}`);
  });
  const entries: HeldoutLedgerEntry[] = [];
  for (const { value, line } of jsonLines(text, shownPath(file))) {
    if (!isEntry(value))
      throw new TurnkitError(
        'BAD_INPUT',
        `${shownPath(file)}:${line}: expected { at, who, command, use, fixtures, targets }`,
      );
    entries.push(value);
  }
  return entries;
}

function isEntry(value: unknown): value is HeldoutLedgerEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.at === 'string' &&
    typeof entry.who === 'string' &&
    typeof entry.command === 'string' &&
    (entry.use === 'look' || entry.use === 'debug-example') &&
    Array.isArray(entry.targets) &&
    Array.isArray(entry.fixtures) &&
    entry.fixtures.every((name) => typeof name === 'string')
  );
}

/** The looks since the set was frozen (its first ledger line); undefined when the ledger is empty. */
export function countHeldoutLooks(entries: readonly HeldoutLedgerEntry[]): HeldoutLooks | undefined {
  const first = entries[0];
  if (!first) return undefined;
  const looks = entries.filter((entry) => entry.use === 'look');
  return {
    frozenAt: first.at,
    looks: looks.length,
    debugExamples: entries.length - looks.length,
    people: new Set(looks.map((entry) => entry.who)).size,
  };
}

/** The one line a report prints about the held-out set's use. */
export function formatHeldoutLooks(looks: HeldoutLooks): string {
  const examples = looks.debugExamples > 0 ? `; ${looks.debugExamples} debugging example(s) made from it` : '';
  return `held-out set: looked at ${looks.looks} time(s) by ${looks.people} person(s) since it was frozen at ${looks.frozenAt}${examples} (${HELDOUT_LEDGER})`;
}
