import { Box, Text } from 'ink';
import { cursorPosition, wrap, type TextBuffer } from '../text-buffer.js';

/** Props of TextArea. */
export interface TextAreaProps {
  readonly buffer: TextBuffer;
  readonly width: number;
  readonly height: number;
  readonly focused?: boolean;
  /** A search match to show underlined (offset and length in the text). */
  readonly match?: { readonly start: number; readonly length: number } | undefined;
}

/** A soft-wrapped text with a visible cursor, scrolled so the cursor stays on screen. */
export function TextArea({ buffer, width, height, focused = true, match }: TextAreaProps) {
  const lines = wrap(buffer.text, Math.max(1, width - 1));
  const { row, column } = cursorPosition(lines, buffer.cursor);
  const top = Math.max(0, Math.min(row - height + 1, lines.length - height));
  const shown = lines.slice(top, top + height);
  return (
    <Box flexDirection="column">
      {shown.map((line, i) => {
        const cursor = focused && top + i === row ? column : undefined;
        return <Text key={top + i}>{line.text === '' && cursor === undefined ? ' ' : styled(line, cursor, match)}</Text>;
      })}
    </Box>
  );
}

// A line cut where its styling changes: the cursor cell inverse, the match underlined.
function styled(line: { start: number; text: string }, cursor: number | undefined, match: TextAreaProps['match']) {
  const text = cursor !== undefined && cursor >= line.text.length ? `${line.text} ` : line.text;
  const from = match ? match.start - line.start : -1;
  const to = match ? from + match.length : -1;
  const cuts = [...new Set([0, text.length, ...(cursor !== undefined ? [cursor, cursor + 1] : []), from, to].filter((at) => at >= 0 && at <= text.length))].sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const start = cuts[i]!;
    const piece = text.slice(start, cuts[i + 1]);
    parts.push(<Text key={start} inverse={start === cursor} underline={start >= from && start < to}>{piece}</Text>);
  }
  return parts;
}
