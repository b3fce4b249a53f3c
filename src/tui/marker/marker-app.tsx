import { Box, Text, useApp, useInput } from 'ink';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Mark } from '../../run-dir/marks/marks-file.js';
import type { MarkingSession } from '../../marking/marking-session.js';
import { fitHeader } from '../full-screen.js';
import { keyEvents } from '../key-events.js';
import { paneLines, PANES } from './marker-content.js';
import { bodyHeightOf, initialMarkerState, reduceMarker, type MarkerState } from './marker-state.js';

/** Props of MarkerApp. */
export interface MarkerAppProps {
  readonly session: MarkingSession;
  readonly width: number;
  readonly height: number;
  /** Called once when the marker closes. */
  readonly onDone: (result: { marked: number; total: number }) => void;
}

/** The keys, in full from 80 columns and short below (60 columns and up). */
const KEY_HELP = 'p/f/n pass/fail/na  u unmark  e note  ←→ rep  tab pane  ↑↓ scroll  a all  q quit';
/** The keys of a rollout rep: turns to step through, and a mark per turn for a person who wants one. */
const TURN_KEY_HELP = 'p/f/n rep  P/F/N/U turn  [ ] turn  e note  ←→ rep  tab  ↑↓  q quit';
const KEY_HELP_SHORT = 'p/f/n mark  u unmark  e note  ←→ rep  tab  ↑↓  a all  q quit';

/** `turnkit mark`: one rep at a time, its response, case file and rubric; every mark saved as it is given. */
export function MarkerApp({ session, width, height, onDone }: MarkerAppProps) {
  const { exit } = useApp();
  const [state, setStateValue] = useState<MarkerState>(() => initialMarkerState(session));
  // Keys can come faster than renders (ink subscribes each render's handler in an effect): the handler works on the
  // latest state, never on the one its render saw, so no key is applied to a stale screen.
  const latest = useRef(state);
  const setState = (next: MarkerState): void => {
    latest.current = next;
    setStateValue(next);
  };
  // A re-render when a write lands; a failed one is shown.
  const [, setVersion] = useState(0);
  const onWrite = (write: Promise<unknown>): void => {
    write.then(
      () => setVersion((version) => version + 1),
      (error: Error) => setState({ ...latest.current, message: `not saved: ${error.message}` }),
    );
  };
  const { index, pane, scroll, turn, note, message, quit } = state;
  const bodyHeight = bodyHeightOf({ width, height });
  // A turn mark changes the turn's text (its "your mark" line): the marks given so far are part of what it depends on.
  const turnMarks = session.markOf(index).turnMarks;
  const lines = useMemo(
    () => paneLines(session, index, pane, width - 1, turn),
    [session, index, pane, width, turn, turnMarks],
  );
  const rep = session.reps[index]!;
  const current = session.markOf(index);

  useEffect(() => {
    if (!quit) return;
    onDone(session.progress());
    exit();
  }, [quit]);

  useInput((input, key) => {
    let next = latest.current;
    for (const event of keyEvents(input, key)) next = reduceMarker(next, session, event.input, event.key, { width, height }, onWrite);
    if (next !== latest.current) setState(next);
  });

  const { marked, total } = session.progress();
  // Blind, the rep's neutral label is all that says where the grader is: its position and its case, never its name.
  const where = session.blind ? rep.label : `rep ${index + 1} of ${session.reps.length} · ${rep.label}`;
  const played = rep.record?.turns;
  const shownTurn = played?.[Math.min(played.length - 1, turn)];
  const turnWhere = shownTurn
    ? ` · turn ${shownTurn.turn} of ${played![0]!.turn + (rep.record?.rollout?.turns ?? played!.length) - 1}`
    : '';
  const header = fitHeader(`${session.manifest.question.id} · ${where}${turnWhere}`, ` · marked ${marked}/${total}${session.blind ? ' · blind' : ''}${session.saving ? ' · saving' : ''}`, width);
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
          <Text bold color={MARK_COLOR[current.mark]}>{`mark: ${current.mark || '(none)'}`}</Text>
          {current.note ? ` · note: ${session.shown(current.note).replace(/\s+/g, ' ')}` : ''}
          {message ? ` · ${message}` : ''}
        </Text>
      )}
      <Text dimColor wrap="truncate">
        {rep.record?.turns?.length ? TURN_KEY_HELP : width >= 80 ? KEY_HELP : KEY_HELP_SHORT}
      </Text>
    </Box>
  );
}

const MARK_COLOR: Record<Mark, string | undefined> = { pass: 'green', fail: 'red', error: 'magenta', na: 'yellow', '': undefined };
