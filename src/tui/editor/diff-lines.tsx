import { Box, Text } from 'ink';
import type { ShownChange } from '../../fixture/constructed/edit-session.js';
import { trimSame, type DiffSegment } from '../../fixture/constructed/word-diff.js';

/** Props of DiffLines. */
export interface DiffLinesProps {
  readonly changes: readonly ShownChange[];
  readonly width: number;
  readonly height: number;
  readonly scroll?: number;
  /** Shorten long unchanged stretches (the live pane) or show the values whole (the full diff). */
  readonly trim?: boolean;
  /** What to say when there is no change. */
  readonly empty?: string;
}

type Line = { path: string } | { chunks: DiffSegment[] };

/**
 * The changes as path lines and word diffs, wrapped to the width. Removed text is red and wrapped in [-...-], added
 * text green in {+...+}, so the diff reads the same without color.
 */
export function DiffLines({ changes, width, height, scroll = 0, trim = true, empty = 'no changes yet' }: DiffLinesProps) {
  if (changes.length === 0) return <Text dimColor>{empty}</Text>;
  const lines: Line[] = changes.flatMap((change) => [
    { path: change.path },
    ...wrapChunks(marked(trim ? trimSame(change.segments) : change.segments), Math.max(10, width - 2)).map((chunks) => ({ chunks })),
  ]);
  const fits = lines.length <= height;
  const shown = lines.slice(scroll, scroll + (fits ? height : height - 1));
  const more = lines.length - scroll - shown.length;
  return (
    <Box flexDirection="column">
      {shown.map((line, i) =>
        'path' in line ? (
          <Text key={i} bold>{`~ ${line.path}`}</Text>
        ) : (
          <Text key={i}>
            {'  '}
            {line.chunks.map((chunk, j) => (
              <Text key={j} color={chunk.kind === 'removed' ? 'red' : chunk.kind === 'added' ? 'green' : undefined}>{chunk.text}</Text>
            ))}
          </Text>
        ),
      )}
      {more > 0 ? <Text dimColor>{`… ${more} more line(s)`}</Text> : null}
    </Box>
  );
}

/** Segments with their plain-text markers, newlines shown as ⏎ so that each screen line stays one line. */
function marked(segments: readonly DiffSegment[]): DiffSegment[] {
  return segments.map((segment) => {
    const text = segment.text.replace(/\n/g, '⏎');
    return { kind: segment.kind, text: segment.kind === 'removed' ? `[-${text}-]` : segment.kind === 'added' ? `{+${text}+}` : text };
  });
}

/**
 * Splits styled chunks into screen lines of at most `width` characters, breaking after a space where one is near
 * (so that words and the [- -] markers stay whole), else mid-word.
 */
function wrapChunks(chunks: readonly DiffSegment[], width: number): DiffSegment[][] {
  const lines: DiffSegment[][] = [[]];
  let used = 0;
  for (const chunk of chunks) {
    let rest = chunk.text;
    while (rest.length > 0) {
      const room = width - used;
      let take = Math.min(room, rest.length);
      if (take < rest.length) {
        const space = rest.lastIndexOf(' ', take - 1);
        if (space >= 0) take = space + 1;
        else if (used > 0) take = 0;
      }
      if (take > 0) {
        lines.at(-1)!.push({ kind: chunk.kind, text: rest.slice(0, take) });
        used += take;
        rest = rest.slice(take);
      }
      if (rest.length > 0) {
        lines.push([]);
        used = 0;
      }
    }
  }
  return lines;
}
