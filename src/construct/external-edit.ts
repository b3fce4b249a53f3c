import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { TurnkitError } from '../errors.js';
import { positionAt } from '../util/json/json-source.js';
import type { EditSession } from './edit-session.js';
import { applyPatch } from './patch.js';
import type { SavedConstructed } from './save-constructed.js';

/** Options of `turnkit edit --editor`. */
export interface ExternalEditOptions {
  turn: number;
  /** The editor command line (the command line gives $VISUAL, else $EDITOR; default vi). */
  editor?: string | undefined;
  dir: string;
  force?: boolean | undefined;
}

/** The result of an external edit: the saved file, or why nothing was written. */
export interface ExternalEditResult {
  saved?: SavedConstructed;
  aborted?: string;
}

/** A refused external edit; the edited file is kept at `kept` so that the work is not lost (like git's COMMIT_EDITMSG). */
export class KeptEditError extends TurnkitError {
  /** Where the user's edit is kept. */
  readonly kept: string;

  constructor(cause: TurnkitError, kept: string) {
    super(cause.code, `${cause.message} (your edit is kept in ${kept})`, [
      ...cause.problems.slice(0, -1),
      `${cause.problems.at(-1) ?? cause.message} (your edit is kept in ${kept})`,
    ]);
    this.kept = kept;
  }
}

/**
 * Opens one turn's rows as JSON in the user's editor, like `git commit`: the file holds the name, the why and the
 * rows; saving it with changes and a why writes the constructed fixture through the same path as `construct`.
 * An unchanged file or an empty why aborts with nothing written.
 */
export async function editInExternalEditor(
  session: EditSession,
  options: ExternalEditOptions,
): Promise<ExternalEditResult> {
  const rows = session.rowsOfTurn(options.turn);
  if (rows.length === 0)
    throw new TurnkitError('BAD_INPUT', `turn ${options.turn} is not a kept turn of ${session.opened.shown}`);
  const defaults = session.defaults(options.turn);
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const row of rows) {
    const values = Object.fromEntries(row.fields.map((field) => [field.column, field.value]));
    (tables[row.table] ??= []).push(values);
  }
  const folder = await mkdtemp(join(tmpdir(), 'turnkit-edit-'));
  const file = join(folder, `turn-${options.turn}.jsonc`);
  const original = editorText(session, options.turn, defaults, tables);
  let keep = false;
  try {
    await writeFile(file, original, { mode: 0o600 });
    const editor = options.editor ?? 'vi';
    const run = spawnSync(`${editor} ${JSON.stringify(file)}`, { shell: true, stdio: 'inherit' });
    if (run.error) throw new TurnkitError('BAD_INPUT', `editor "${editor}" could not start: ${run.error.message}`);
    if (run.status !== 0)
      return { aborted: `editor "${editor}" exited with ${run.status ?? run.signal}; nothing written` };
    const text = await readFile(file, 'utf8');
    if (text === original) return { aborted: 'the file was not changed; nothing written' };
    try {
      const edited = parseEdited(text, file);
      if (edited.why.trim() === '') return { aborted: 'empty "why": nothing written' };
      session.current = applyPatch(session.current, edited.rows, file);
      return { saved: await session.save(edited.name, edited.why, options.dir, options.force ?? false) };
    } catch (error) {
      if (!(error instanceof TurnkitError)) throw error;
      keep = true;
      throw new KeptEditError(error, file);
    }
  } finally {
    if (!keep) await rm(folder, { recursive: true, force: true });
  }
}

function editorText(
  session: EditSession,
  turn: number,
  meta: { name: string; why: string },
  tables: Record<string, unknown>,
): string {
  const header = [
    `// turnkit edit ${session.opened.shown}: turn ${turn} and the rows tied to it.`,
    '// Change values; keys and foreign keys must stay as they are. Fill in "why" (what this fixture tests).',
    '// Save and quit to write constructed/NAME.json; leave the file unchanged or "why" empty to abort.',
  ];
  return `${header.join('\n')}\n${JSON.stringify({ name: meta.name, why: meta.why, rows: tables }, null, 2)}\n`;
}

function parseEdited(text: string, file: string): { name: string; why: string; rows: unknown } {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0) {
    const { line, column } = positionAt(text, errors[0]!.offset);
    throw new TurnkitError(
      'BAD_INPUT',
      `${file}:${line}:${column}: invalid JSON: ${printParseErrorCode(errors[0]!.error)}; nothing written`,
    );
  }
  const document = value as { name?: unknown; why?: unknown; rows?: unknown } | null;
  if (typeof document?.name !== 'string' || typeof document.why !== 'string' || typeof document.rows !== 'object') {
    throw new TurnkitError(
      'BAD_INPUT',
      `${file}: $: expected {"name": ..., "why": ..., "rows": {...}}; nothing written`,
    );
  }
  return { name: document.name, why: document.why, rows: document.rows };
}
