import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { TurnkitError } from '../errors.js';
import { lenientJsonLines } from '../util/json/json-lines.js';
import { parseJsonText, parseWithSchema } from '../util/json/json-source.js';
import { describeReadError, shownPath } from '../util/shown-path.js';
import { leanManifest } from './lean-shapes.js';
import type { Manifest } from './manifest.js';
import type { RepRecord } from './rep-record.js';
import { readRunText } from './run-file.js';

/** A rep of a run: which fixture, which rep. */
export interface RepKey {
  fixture: string;
  rep: number;
}

/** A rep's identity in the sets and maps of a run's state. */
export function repId(key: RepKey): string {
  return `${key.fixture}\u0000${key.rep}`;
}

/** Where each rep's start is appended as it starts (the manifest gets the whole order when the run stops). */
export const ORDER_FILE = 'order.jsonl';

/** What a run directory holds: its manifest and which reps are complete or errored (by `fixture\0rep`). */
export interface RunState {
  manifest: Manifest;
  /** Every rep start on record, from order.jsonl (which survives a killed run) or the manifest. */
  order: Manifest['order'];
  completed: Set<string>;
  /** Errored reps with their one-line cause, for marks.csv's note. */
  errored: Map<string, string>;
  /** Every readable rep record (the latest attempt of each rep). */
  records: Map<string, RepRecord>;
}

/** Reads and checks a run directory's manifest.json. */
export async function readManifest(dir: string): Promise<Manifest> {
  const manifestFile = join(dir, 'manifest.json');
  if (!existsSync(manifestFile))
    throw new TurnkitError('NOT_FOUND', `${shownPath(dir)}: not a run directory (no manifest.json)`);
  const text = await readRunText(dir, 'manifest.json').catch((error: NodeJS.ErrnoException) => {
    if (error instanceof TurnkitError) throw error;
    throw new TurnkitError('BAD_INPUT', `${shownPath(manifestFile)}: ${describeReadError(error)}`);
  });
  const value = parseJsonText(text, shownPath(manifestFile));
  // A manifest as turnkit writes it passes the lean shape: read without loading zod (most of a report's start). Any
  // other is the schema's to judge, with its messages (and its defaults, were one left out).
  if (leanManifest(value)) return value as Manifest;
  const { manifestSchema } = await import('./manifest.js');
  return parseWithSchema(manifestSchema, value, shownPath(manifestFile));
}

/**
 * A rep record's text as the record, or undefined when it holds none: a record torn by a crash counts as not run
 * (`--resume` runs the rep again and keeps the torn file), by every reader of rep records alike.
 */
export function repRecordOf(text: string): RepRecord | undefined {
  // JSON.parse, not the checked reader: a record is turnkit's own writing, and holds what the SUT wrote (jsonb of any
  // depth) that the reader's depth limit for hand-written files would take for a torn record.
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as RepRecord) : undefined;
}

/**
 * Reads a run directory's manifest and rep records (the manifest given, when the caller holds a newer one); each
 * record through `readText` (readRun passes its reader, so that a command's reads can be counted). Every record is
 * held at once: a run's end reads them one at a time instead (forEachRepRecord).
 */
export async function readRunState(
  dir: string,
  manifest?: Manifest,
  readText: (dir: string, relative: string) => Promise<string> = readRunText,
): Promise<RunState> {
  manifest ??= await readManifest(dir);
  const completed = new Set<string>();
  const errored = new Map<string, string>();
  const records = new Map<string, RepRecord>();
  const repsDir = join(dir, 'reps');
  if (existsSync(repsDir)) {
    for (const fixture of await readdir(repsDir)) {
      for (const name of await readdir(join(repsDir, fixture))) {
        // rep-NN.json is the rep; rep-NN.attempt-K.json an earlier, errored attempt kept as evidence.
        if (!/^rep-\d+\.json$/.test(name)) continue;
        const file = join(repsDir, fixture, name);
        const text = await readText(dir, relative(dir, file)).catch((error: unknown) => {
          if (error instanceof TurnkitError) throw error;
          return '';
        });
        const record = repRecordOf(text);
        if (!record) continue;
        const id = repId(record);
        records.set(id, record);
        if (record.error)
          errored.set(id, `${record.error.stage}: ${record.error.cause}: ${record.error.message}`.slice(0, 200));
        else completed.add(id);
      }
    }
  }
  const orderFile = join(dir, ORDER_FILE);
  // Read leniently: a run killed mid-append leaves a torn line (and a resume appends after it), which is skipped.
  const order = existsSync(orderFile)
    ? lenientJsonLines(await readFile(orderFile, 'utf8')).flatMap(({ value }) =>
        typeof value === 'object' && value !== null ? [value as Manifest['order'][number]] : [],
      )
    : manifest.order;
  return { manifest, order, completed, errored, records };
}
