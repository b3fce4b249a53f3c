import { Box, Text, useApp, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { join, relative } from 'node:path';
import type { EditSession, ShownChange } from '../../fixture/constructed/edit-session.js';
import type { SavedConstructed } from '../../fixture/constructed/save-constructed.js';
import { isTurnkitError } from '../../errors.js';
import { DiffLines } from './diff-lines.js';
import { hasUnsaved, initialState, parseInline, reduce, textAreaHeight, type EditorState, type Mode } from './editor-state.js';
import { matchCount } from '../text-search.js';
import { keyEvents } from '../key-events.js';
import { useRawInput } from '../use-raw-input.js';
import { keyHelp, SaveDialog, SearchLine, TurnList, TurnView } from './editor-views.js';
import { TextArea } from './text-area.js';

/** How an editing session ended: the last file written (and every one, in order), or nothing when none was. */
export interface EditorResult {
  saved?: SavedConstructed;
  written?: SavedConstructed[];
}

/** Props of EditorApp. */
export interface EditorAppProps {
  readonly session: EditSession;
  /** Folder the constructed fixture is written to. */
  readonly outDir: string;
  readonly width: number;
  readonly height: number;
  /** Open this turn at once instead of the turn list. */
  readonly openTurn?: number | undefined;
  readonly onDone: (result: EditorResult) => void;
}

const DIFF_HEIGHT = 6;

/** `turnkit edit`: pick a turn, edit its rows, watch the diff, save a constructed fixture. */
export function EditorApp({ session, outDir, width, height, openTurn, onDone }: EditorAppProps) {
  const { exit } = useApp();
  const [state, setStateValue] = useState<EditorState>(() => initialState(session, openTurn));
  // reduce() changes the session, so it runs once per key here rather than inside a React state updater.
  const latest = useRef(state);
  const setState = (next: EditorState): void => {
    latest.current = next;
    setStateValue(next);
  };
  const layout = { width, height };
  const written = useRef<SavedConstructed[]>([]);

  const raw = useRawInput();
  useInput((input, key) => {
    let next = latest.current;
    for (const event of keyEvents(input, key, raw.current)) {
      if (next.saveRequest || next.quit) break;
      next = reduce(next, session, event.input, event.key, layout);
    }
    if (next !== latest.current) setState(next);
  });

  useEffect(() => {
    if (state.quit) {
      const files = written.current;
      onDone(files.length > 0 ? { saved: files.at(-1)!, written: files } : {});
      exit();
    }
  }, [state.quit]);

  useEffect(() => {
    const request = state.saveRequest;
    if (!request) return;
    session.save(request.name, request.why, outDir, request.force).then(
      (saved) => {
        // Saved: back to the editor, the file named, so that the next experiment starts from here (q quits).
        written.current = [...written.current, saved];
        const { saveRequest: _done, ...previous } = latest.current;
        const back = previous.mode.name === 'save' ? previous.mode.back : previous.mode;
        const file = relative(process.cwd(), saved.file);
        setState({
          ...previous,
          mode: back,
          saved: { file, name: request.name, of: session.current },
          draft: { name: request.name, why: request.why },
          message: `wrote ${file} (${saved.paths.length} change(s)); q quits`,
        });
      },
      (error: unknown) => {
        // Every failure stays in the dialog: the edits are still here, and the user can fix the name or the folder.
        const { saveRequest: _done, ...previous } = latest.current;
        if (previous.mode.name !== 'save') return setState(previous);
        const exists = isTurnkitError(error) && error.code === 'EXISTS';
        const message = exists ? `${relative(process.cwd(), join(outDir, `${request.name}.json`))} already exists` : (error as Error).message;
        setState({ ...previous, mode: { ...previous.mode, error: message, confirmOverwrite: exists } });
      },
    );
  }, [state.saveRequest]);

  const mode = state.mode;
  const changes = liveChanges(session, mode);
  const typing = mode.name === 'text' || mode.name === 'inline' ? mode.turn : undefined;
  const edited = session.editedTurn() ?? (changes.length > 0 ? typing : undefined);
  const mainHeight = height - DIFF_HEIGHT - 4;
  const baseName = edited !== undefined ? session.baseFor(edited).fixture.name : session.opened.fixture.name;
  // Most telling first: the header is cut at the terminal's width, and a long path is the least needed part.
  const saveState = hasUnsaved(state, session) ? ' · unsaved' : state.saved ? ` · saved as ${state.saved.name}` : '';
  const header = `turnkit edit · ${edited !== undefined ? `turn ${edited}` : 'no turn edited'} · ${changes.length} change(s)${saveState} · ${session.opened.shown}`;
  const emptyDiff = session.isDirty() ? 'no change against the base: a constructed fixture needs at least one (q discards)' : 'no changes yet';
  return (
    <Box flexDirection="column" width={width}>
      <Text inverse wrap="truncate-end">{header.padEnd(width)}</Text>
      <Box flexDirection="column" height={mainHeight}>
        {mode.name === 'turns' ? <TurnList turns={session.turns()} selected={state.turnIndex} width={width} height={mainHeight} /> : null}
        {mode.name === 'turn' ? <TurnView rows={session.rowsOfTurn(mode.turn)} selected={state.fieldIndex} width={width} height={mainHeight} /> : null}
        {mode.name === 'text' || mode.name === 'inline' ? (
          <Box flexDirection="column">
            <Text bold wrap="truncate-end">{`editing ${mode.field.label}${mode.name === 'inline' ? ' (JSON)' : ''}`}</Text>
            <TextArea buffer={mode.buffer} width={width} height={textAreaHeight(layout)} match={mode.search?.match !== undefined ? { start: mode.search.match, length: mode.search.query.text.length } : undefined} />
            {mode.search ? <SearchLine query={mode.search.query.text} found={matchCount(mode.buffer.text, mode.search.query.text, mode.search.match)} /> : null}
            {mode.name === 'inline' && mode.error ? <Text color="red" wrap="truncate-end">{mode.error}</Text> : null}
          </Box>
        ) : null}
        {mode.name === 'diff' ? <DiffLines changes={changes} width={width} height={mainHeight} scroll={mode.scroll} trim={false} empty={emptyDiff} /> : null}
        {mode.name === 'save' ? <SaveDialog mode={mode} width={width} target={relative(process.cwd(), join(outDir, `${mode.nameBuffer.text.trim() || '…'}.json`))} /> : null}
        {mode.name === 'quit' ? <Text color="yellow">{`Discard your unsaved edits and quit? (y/n)`}</Text> : null}
      </Box>
      <Text dimColor wrap="truncate-end">{`── diff against ${baseName} ${'─'.repeat(Math.max(0, width - baseName.length - 18))}`}</Text>
      <Box height={DIFF_HEIGHT} flexDirection="column">
        {mode.name === 'diff' ? <Text dimColor>(shown above)</Text> : <DiffLines changes={changes} width={width} height={DIFF_HEIGHT} empty={emptyDiff} />}
      </Box>
      <Text color="cyan" wrap="truncate-end">{state.message ?? ' '}</Text>
      <Text dimColor wrap="truncate-end">{keyHelp(mode)}</Text>
    </Box>
  );
}

// While a field is being typed, the diff shows it as if applied: the diff is live, not only after Ctrl-S.
function liveChanges(session: EditSession, mode: Mode): ShownChange[] {
  if (mode.name === 'text') {
    const value = mode.buffer.text === '' && mode.field.original === null ? null : mode.buffer.text;
    return session.previewChanges(mode.turn, mode.field.table, mode.field.key, mode.field.column, value);
  }
  if (mode.name === 'inline') {
    const parsed = parseInline(mode.buffer.text);
    if ('value' in parsed) return session.previewChanges(mode.turn, mode.field.table, mode.field.key, mode.field.column, parsed.value);
  }
  return session.changes();
}
