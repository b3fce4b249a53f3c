import { Box, Text } from 'ink';
import { cursorPosition, wrap, type TextBuffer } from '../text-buffer.js';

/** Props of TextArea. */
export interface TextAreaProps {
  readonly buffer: TextBuffer;
  readonly width: number;
  readonly height: number;
  readonly focused?: boolean;
}

/** A soft-wrapped text with a visible cursor, scrolled so the cursor stays on screen. */
export function TextArea({ buffer, width, height, focused = true }: TextAreaProps) {
  const lines = wrap(buffer.text, Math.max(1, width - 1));
  const { row, column } = cursorPosition(lines, buffer.cursor);
  const top = Math.max(0, Math.min(row - height + 1, lines.length - height));
  const shown = lines.slice(top, top + height);
  return (
    <Box flexDirection="column">
      {shown.map((line, i) => {
        const here = focused && top + i === row;
        if (!here) return <Text key={top + i}>{line.text || ' '}</Text>;
        const under = line.text[column] ?? ' ';
        return (
          <Text key={top + i}>
            {line.text.slice(0, column)}
            <Text inverse>{under}</Text>
            {line.text.slice(column + 1)}
          </Text>
        );
      })}
    </Box>
  );
}
