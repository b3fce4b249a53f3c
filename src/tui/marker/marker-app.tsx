import { Box, Text, useApp, useInput } from 'ink';
import { useEffect, useMemo, useState } from 'react';
import type { Mark } from '../../pipeline/marks-file.js';
import type { MarkingSession } from '../../marks/marking-session.js';
import { paneLines, PANES, type Pane } from './marker-content.js';

/** Props of MarkerApp. */
export interface MarkerAppProps {
  readonly session: MarkingSession;
  readonly width: number;
  readonly height: number;
  /** Called once when the marker closes. */
  readonly onDone: (result: { marked: number; total: number }) => void;
}

/** Lines besides the pane: header, tabs, mark line, key help. */
const CHROME = 4;
/** The keys, in full from 80 columns and short below (60 columns and up). */
const KEY_HELP = 'p/f/n pass/fail/na  u unmark  e note  ←→ rep  tab pane  ↑↓ scroll  a all  q quit';
const KEY_HELP_SHORT = 'p/f/n mark  u unmark  e note  ←→ rep  tab  ↑↓  a all  q quit';
const MARK_KEYS: Record<string, Exclude<Mark, 'error' | ''>> = { p: 'pass', f: 'fail', n: 'na' };

/** `turnkit mark`: one rep at a time, its response, case file and rubric; every mark saved as it is given. */
export function MarkerApp({ session, width, height, onDone }: MarkerAppProps) {
  const { exit } = useApp();
  const [index, setIndex] = useState(() => session.firstUnmarked());
  const [pane, setPane] = useState<Pane>('response');
  const [scroll, setScroll] = useState(0);
  const [note, setNote] = useState<string | undefined>(undefined);
  const [showAll, setShowAll] = useState(false);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [quit, setQuit] = useState(false);
  // A re-render after a save: the session holds the marks.
  const [, setVersion] = useState(0);

  const bodyHeight = Math.max(3, height - CHROME);
  const lines = useMemo(() => paneLines(session, index, pane, width - 1), [session, index, pane, width]);
  const maxScroll = Math.max(0, lines.length - bodyHeight);
  const rep = session.reps[index]!;
  const current = session.markOf(index);

  useEffect(() => {
    if (!quit) return;
    onDone(session.progress());
    exit();
  }, [quit]);

  const go = (next: number): void => {
    setMessage(next === index ? 'no more reps that way' : undefined);
    setIndex(next);
    setScroll(0);
  };

  const save = (mark: Exclude<Mark, 'error'>, text: string | undefined, advance: boolean): void => {
    if (rep.skipped) {
      setMessage(`this rep ${rep.record ? 'errored' : 'was not run'}: it keeps its mark`);
      return;
    }
    const before = session.markOf(index);
    if (before.mark === mark && (text === undefined || text === before.note)) {
      if (!advance) return setMessage('unchanged');
    }
    // The session counts the mark at once and writes it in order behind the others; a failed write is shown.
    session.setMark(index, mark, text).then(
      () => setVersion((version) => version + 1),
      (error: Error) => setMessage(`not saved: ${error.message}`),
    );
    setVersion((version) => version + 1);
    const { marked, total } = session.progress();
    if (!advance) return setMessage(`saved in ${fileName(session.file)}`);
    const next = session.step(index, 1, showAll);
    setMessage(marked === total ? `all ${total} reps marked; saved in ${fileName(session.file)}` : next === index ? 'last rep' : undefined);
    if (next !== index) {
      setIndex(next);
      setScroll(0);
    }
  };

  useInput((input, key) => {
    if (quit) return;
    if (note !== undefined) {
      if (key.ctrl && input === 'c') return setQuit(true);
      if (key.escape) return setNote(undefined);
      if (key.return) {
        const text = note;
        setNote(undefined);
        return save(current.mark === 'error' ? '' : current.mark, text, false);
      }
      if (key.backspace || key.delete) return setNote(note.slice(0, -1));
      if (input && !key.ctrl && !key.meta) setNote(note + input.replace(/[\r\n]/g, ' '));
      return;
    }
    if (input === 'q' || (key.ctrl && input === 'c')) return setQuit(true);
    const mark = MARK_KEYS[input];
    if (mark) return save(mark, undefined, true);
    if (input === 'u') return save('', undefined, false);
    if (input === 'e') {
      if (rep.skipped) return setMessage(`this rep ${rep.record ? 'errored' : 'was not run'}: it keeps its mark`);
      return setNote(current.note);
    }
    if (input === 'a') {
      setShowAll(!showAll);
      return setMessage(showAll ? 'errored reps skipped' : 'errored reps shown');
    }
    if (key.rightArrow || input === 'l') return go(session.step(index, 1, showAll));
    if (key.leftArrow || input === 'h') return go(session.step(index, -1, showAll));
    if (key.tab || ['1', '2', '3'].includes(input)) {
      const position = PANES.findIndex((entry) => entry.pane === pane);
      const next = key.tab ? PANES[(position + (key.shift ? PANES.length - 1 : 1)) % PANES.length]! : PANES[Number(input) - 1]!;
      setPane(next.pane);
      return setScroll(0);
    }
    if (key.downArrow || input === 'j') return setScroll(Math.min(maxScroll, scroll + 1));
    if (key.upArrow || input === 'k') return setScroll(Math.max(0, scroll - 1));
    if (key.pageDown || input === ' ') return setScroll(Math.min(maxScroll, scroll + bodyHeight - 1));
    if (key.pageUp) return setScroll(Math.max(0, scroll - bodyHeight + 1));
  });

  const { marked, total } = session.progress();
  const position = `rep ${index + 1} of ${session.reps.length}`;
  const header = `${session.manifest.question.id} · ${position} · ${rep.fixture} rep ${rep.rep} · marked ${marked}/${total}${session.blind ? ' · blind' : ''}`;
  const shown = lines.slice(scroll, scroll + bodyHeight);
  const more = lines.length > bodyHeight ? ` (lines ${scroll + 1}-${Math.min(lines.length, scroll + bodyHeight)} of ${lines.length})` : '';
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate">{header}</Text>
      <Text wrap="truncate">
        {PANES.map((entry, i) => (entry.pane === pane ? `[${i + 1} ${entry.title}]` : ` ${i + 1} ${entry.title} `)).join(' ')}
        {more}
      </Text>
      <Box flexDirection="column" height={bodyHeight}>
        {shown.map((line, i) => (
          <Text key={i} wrap="truncate">{line === '' ? ' ' : line}</Text>
        ))}
      </Box>
      {note !== undefined ? (
        <Text wrap="truncate">note: {note}█  (Enter save · Esc cancel)</Text>
      ) : (
        <Text wrap="truncate">
          <Text bold color={markColor(current.mark)}>{`mark: ${current.mark || '(none)'}`}</Text>
          {current.note ? ` · note: ${current.note.replace(/\s+/g, ' ')}` : ''}
          {message ? ` · ${message}` : ''}
        </Text>
      )}
      <Text dimColor wrap="truncate">{width >= 80 ? KEY_HELP : KEY_HELP_SHORT}</Text>
    </Box>
  );
}

function markColor(mark: Mark): string | undefined {
  return mark === 'pass' ? 'green' : mark === 'fail' ? 'red' : mark === 'error' ? 'magenta' : mark === 'na' ? 'yellow' : undefined;
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
