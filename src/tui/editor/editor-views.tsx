import { Box, Text } from 'ink';
import type { EditableRow, TurnListing } from '../../fixture/constructed/edit-session.js';
import { TextArea } from './text-area.js';
import { fieldsOf, type Mode } from './editor-state.js';

const KEY_HELP: Record<Mode['name'], string> = {
  turns: '↑↓ move · Enter open turn · d diff · s save · q quit',
  turn: '↑↓ Enter edit · / find · r revert · n null · Esc back · d diff · s save · q quit',
  text: 'Ctrl-F find · Ctrl-←→ word · Ctrl-Z/Y undo/redo · Ctrl-S apply · Esc cancel',
  inline: 'type a JSON value · Ctrl-Z undo · Enter apply · Esc cancel',
  diff: '↑↓ scroll · Esc back',
  save: 'Tab switch field · Enter next field · Ctrl-S save · Esc cancel',
  quit: 'y discard changes and quit · n keep editing',
};

/** Keys shown at the bottom of each screen: the editor works from the keyboard alone. */
export function keyHelp(mode: Mode): string {
  if (mode.name === 'save' && mode.confirmOverwrite) return 'y overwrite · any other key: back to the name';
  if ((mode.name === 'text' || mode.name === 'inline') && mode.search) return 'type to find · Enter go there · Ctrl-F/↓ next · ↑ previous · Esc back';
  return KEY_HELP[mode.name];
}

/** Props of TurnList. */
export interface TurnListProps {
  readonly turns: readonly TurnListing[];
  readonly selected: number;
  readonly width: number;
  readonly height: number;
}

/** The kept turns: number, first line of the input and of the narration; `*` marks the edited turn. */
export function TurnList({ turns, selected, width, height }: TurnListProps) {
  const top = windowTop(selected, turns.length, height - 1);
  const inputWidth = Math.max(10, Math.floor((width - 10) * 0.45));
  const narrationWidth = Math.max(10, width - 10 - inputWidth - 3);
  return (
    <Box flexDirection="column">
      <Text dimColor>{`  turn  ${pad('input', inputWidth)} │ narration`}</Text>
      {turns.slice(top, top + height - 1).map((entry, i) => {
        const here = top + i === selected;
        const line = `${here ? '▸' : ' '} ${String(entry.turn).padStart(4)}${entry.changed ? '*' : ' '} ${pad(entry.input, inputWidth)} │ ${cut(entry.narration, narrationWidth)}`;
        return <Text key={entry.turn} inverse={here} color={entry.changed ? 'yellow' : undefined} wrap="truncate-end">{line}</Text>;
      })}
    </Box>
  );
}

/** Props of TurnView. */
export interface TurnViewProps {
  readonly rows: readonly EditableRow[];
  readonly selected: number;
  readonly width: number;
  readonly height: number;
}

/** The rows tied to one turn with their fields; the selected field's whole value below the list. */
export function TurnView({ rows, selected, width, height }: TurnViewProps) {
  const fields = fieldsOf(rows);
  const current = fields[selected];
  const previewHeight = 4;
  const lines: { key: string; text: string; here: boolean; bold?: boolean; dim?: boolean; changed?: boolean }[] = [];
  let index = 0;
  for (const row of rows) {
    lines.push({ key: `h:${row.label}`, text: row.label, here: false, bold: true });
    for (const field of row.fields) {
      const here = index === selected;
      const value = field.kind === 'text' && typeof field.value === 'string' ? field.value.replace(/\n/g, '⏎') : JSON.stringify(field.value);
      const mark = field.locked ? '#' : field.changed ? '*' : ' ';
      lines.push({ key: `f:${row.label}.${field.column}`, text: `${here ? '▸' : ' '}${mark} ${pad(field.column, 18)} ${cut(value ?? '', width - 24)}`, here, dim: field.locked !== undefined, changed: field.changed });
      index++;
    }
  }
  const listHeight = Math.max(3, height - previewHeight - 1);
  const selectedLine = lines.findIndex((line) => line.here);
  const top = windowTop(selectedLine, lines.length, listHeight);
  // Text fields show their text; every other value shows as JSON, so a jsonb string reads "3" and a number 3.
  const preview = !current ? '' : current.field.locked ? `# ${current.field.column} is ${current.field.locked}` : current.field.kind === 'text' && typeof current.field.value === 'string' ? current.field.value : JSON.stringify(current.field.value);
  return (
    <Box flexDirection="column">
      {lines.slice(top, top + listHeight).map((line) => (
        // One screen line per field, whatever its characters' widths (CJK, emoji): a line that wrapped would push the
        // selection off the bottom of the list.
        <Text key={line.key} inverse={line.here} bold={line.bold} dimColor={line.dim} color={line.changed ? 'yellow' : undefined} wrap="truncate-end">
          {line.text}
        </Text>
      ))}
      <Text dimColor>{`── # cannot change · * changed ${'─'.repeat(Math.max(0, width - 32))}`}</Text>
      <TextArea buffer={{ text: preview ?? '', cursor: 0 }} width={width} height={previewHeight} focused={false} />
    </Box>
  );
}

/** Props of SearchLine. */
export interface SearchLineProps {
  readonly query: string;
  readonly found: { readonly count: number; readonly index: number };
}

/** The search being typed, with which match the cursor is on. */
export function SearchLine({ query, found }: SearchLineProps) {
  const where = query === '' ? '' : found.count === 0 ? '  (not found)' : `  (match ${found.index} of ${found.count})`;
  return (
    <Text wrap="truncate-end">
      <Text color="cyan">find: </Text>
      {query}
      <Text inverse> </Text>
      <Text dimColor>{where}</Text>
    </Text>
  );
}

/** Props of SaveDialog. */
export interface SaveDialogProps {
  readonly mode: Extract<Mode, { name: 'save' }>;
  readonly width: number;
  readonly target: string;
}

/** Asks for the constructed fixture's name and why. */
export function SaveDialog({ mode, width, target }: SaveDialogProps) {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={Math.min(width, 78)}>
      <Text bold>Save constructed fixture</Text>
      <Text dimColor>{cut(`writes ${target}`, width - 6)}</Text>
      <Text>{mode.focus === 'name' ? '▸ name' : '  name'}</Text>
      <TextArea buffer={mode.nameBuffer} width={width - 6} height={1} focused={mode.focus === 'name'} />
      <Text>{mode.focus === 'why' ? '▸ why (what this fixture tests)' : '  why (what this fixture tests)'}</Text>
      <TextArea buffer={mode.whyBuffer} width={width - 6} height={3} focused={mode.focus === 'why'} />
      {mode.error ? <Text color="red">{mode.error}</Text> : null}
      {mode.confirmOverwrite ? <Text color="yellow">overwrite it? y overwrites · any other key goes back to the name</Text> : null}
    </Box>
  );
}

function windowTop(selected: number, total: number, height: number): number {
  if (total <= height || selected < 0) return 0;
  return Math.min(Math.max(0, selected - Math.floor(height / 2)), total - height);
}

function pad(text: string, width: number): string {
  return cut(text, width).padEnd(width);
}

function cut(text: string, width: number): string {
  if (width <= 1) return '';
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
