import { Box, Text, useApp, useInput } from 'ink';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChangeConflict } from '../../fixture/constructed/apply-changes.js';
import type { KeepChoice } from '../../fixture/constructed/resolve-conflicts.js';
import { fitHeader } from '../full-screen.js';
import { keyEvents } from '../key-events.js';
import { choiceLabel, detailLines } from './resolver-content.js';
import { initialResolverState, keepChoicesOf, reduceResolver, type ResolverState } from './resolver-state.js';

/** Props of ResolverApp. */
export interface ResolverAppProps<T> {
  /** The constructed fixture and the base it is being rebased onto, as messages show them. */
  readonly file: string;
  readonly base: string;
  readonly conflicts: readonly ChangeConflict[];
  /** Writes the rebased file with these choices; a rejection is shown and the resolver stays open. */
  readonly onSave: (choices: KeepChoice[]) => Promise<T>;
  /** Called once when the resolver closes: the save's result, or undefined when the author quit. */
  readonly onDone: (result: T | undefined) => void;
  readonly width: number;
  readonly height: number;
}

const KEY_HELP = '↑↓ path · b keep new base · c keep change · u clear · PgUp/PgDn · s save · q quit';
const KEY_HELP_SHORT = '↑↓ · b base · c change · u clear · PgUp/Dn · s save · q quit';

/**
 * `turnkit rebase --interactive`: each conflicting path with the old base's value, the new base's and the change's;
 * the author keeps the new base or the change per path, and the rebased file is written once, when every path has
 * a side.
 */
export function ResolverApp<T>({ file, base, conflicts, onSave, onDone, width, height }: ResolverAppProps<T>) {
  const { exit } = useApp();
  const [state, setStateValue] = useState<ResolverState>(() => initialResolverState(conflicts.length));
  // Keys can arrive faster than renders: each works on the latest state, not the one its render saw.
  const latest = useRef(state);
  const setState = (next: ResolverState): void => {
    latest.current = next;
    setStateValue(next);
  };
  const [closed, setClosed] = useState<{ result: T | undefined } | undefined>(undefined);
  useEffect(() => {
    if (!closed) return;
    onDone(closed.result);
    exit();
  }, [closed]);

  const listHeight = Math.min(conflicts.length, Math.max(3, Math.floor((height - 6) / 3)));
  const detailHeight = Math.max(3, height - listHeight - 4);
  const current = conflicts[state.selected]!;
  const lines = useMemo(
    () => detailLines(current, state.choices[state.selected], width),
    [current, state.choices, state.selected, width],
  );

  useInput((input, key) => {
    for (const event of keyEvents(input, key)) {
      const { state: next, action } = reduceResolver(latest.current, conflicts, event.input, event.key, {
        detailLines: lines.length,
        detailHeight,
      });
      setState(next);
      if (action === 'quit') return setClosed({ result: undefined });
      if (action === 'save') {
        onSave(keepChoicesOf(conflicts, next)).then(
          (result) => setClosed({ result }),
          (error: Error) =>
            setState({ ...latest.current, saving: false, message: { text: `not saved: ${error.message}`, error: true } }),
        );
        return;
      }
    }
  });

  const open = state.choices.filter((choice) => choice === undefined).length;
  const header = fitHeader(
    `rebase ${file} → ${base}`,
    ` · ${conflicts.length} conflict(s) · ${open === 0 ? 'all chosen' : `${open} to choose`}`,
    width - 1,
  );
  const top = Math.min(Math.max(0, state.selected - Math.floor(listHeight / 2)), conflicts.length - listHeight);
  const pathWidth = Math.max(10, width - 20);
  const shown = lines.slice(state.scroll, state.scroll + detailHeight);
  const more = lines.length > detailHeight ? ` (lines ${state.scroll + 1}-${state.scroll + shown.length} of ${lines.length})` : '';
  const status = state.confirmQuit
    ? { text: 'quit without rebasing? your choices are lost and nothing is written · y quit · any other key stays', error: true }
    : state.saving
      ? { text: 'saving…', error: false }
      : state.message;
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate">{header}</Text>
      {conflicts.slice(top, top + listHeight).map((conflict, i) => {
        const index = top + i;
        const here = index === state.selected;
        const choice = state.choices[index];
        const path = conflict.path.length > pathWidth ? `${conflict.path.slice(0, pathWidth - 1)}…` : conflict.path.padEnd(pathWidth);
        return (
          <Text key={conflict.path} inverse={here} color={choice === undefined ? 'yellow' : undefined} wrap="truncate">
            {`${here ? '▸' : ' '} ${path} ${choiceLabel(choice)}`}
          </Text>
        );
      })}
      <Text dimColor wrap="truncate">{`── ${current.path}${more} ${'─'.repeat(Math.max(0, width))}`}</Text>
      <Box flexDirection="column" height={detailHeight}>
        {shown.map((line, i) => (
          <Text
            key={state.scroll + i}
            wrap="truncate"
            bold={line.heading !== undefined}
            color={line.heading === 'kept' ? 'green' : undefined}
            dimColor={line.heading === 'dropped'}
          >
            {line.text === '' ? ' ' : line.text}
          </Text>
        ))}
      </Box>
      <Text wrap="truncate" color={status?.error ? 'red' : undefined}>{status?.text ?? ' '}</Text>
      <Text dimColor wrap="truncate">{width >= 84 ? KEY_HELP : KEY_HELP_SHORT}</Text>
    </Box>
  );
}
