import { TurnkitError } from '../errors.js';
import type { Fixture, FixtureRow, FixtureTable } from '../fixture/format.js';
import { positionAt } from '../util/json/json-source.js';
import { turnInputs, turnModelOf, turnsInOrder } from '../fixture/turns/turn-rows.js';
import { groupsRows } from '../fixture/turns/turn-groups.js';
import { markdownTable } from '../util/text-table.js';
import { turnLines } from '../fixture/turns/turn-text.js';

/**
 * The placeholders a case-file template may use. Anything else in `{{ }}` is an error naming its line and column,
 * so a typo never renders as an empty section the SUT silently does without.
 */
export const PLACEHOLDERS = [
  '{{fixture.name}}                 the fixture (or constructed fixture) name',
  '{{turn}}                         the turn the SUT plays (the input turn)',
  "{{input}}                        the player's input (every input column; one column as plain text)",
  '{{input.COLUMN}}                 one input column',
  '{{root.COLUMN}}                  a column of the campaign row',
  "{{table:NAME}}                   a table's rows as a Markdown table (key columns left out)",
  '{{table:NAME columns=A,B}}       ... with these columns',
  '{{recent_turns:N}}               the last N kept turns: number, input and narration',
  "{{fact:NAME}}                    a fact of the question, read from the rep's campaign before its SUT call",
] as const;

const FACT_PLACEHOLDER = /\{\{\s*fact:([A-Za-z][\w-]*)\s*\}\}/g;

/** A rendered case file with each `{{fact:NAME}}` replaced by the fact as one rep's campaign holds it. */
export function withFacts(caseFile: string, facts: Readonly<Record<string, { value: string | null }>>): string {
  return caseFile.replace(FACT_PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(facts, name) ? (facts[name]!.value ?? '') : whole,
  );
}

/** The fact names a rendered case file asks for. */
export function factPlaceholders(caseFile: string): string[] {
  return [...caseFile.matchAll(FACT_PLACEHOLDER)].map((match) => match[1]!);
}

const PLACEHOLDER = /\{\{\s*([^}]*?)\s*\}\}/g;

/** Renders a case-file template for a fixture; `file` names the template in errors (`file:line:col`). */
export function renderCaseFile(template: string, fixture: Fixture, file: string): string {
  return template.replace(PLACEHOLDER, (_whole, expression: string, offset: number) => {
    const fail = (message: string): never => {
      const { line, column } = positionAt(template, offset);
      throw new TurnkitError('BAD_INPUT', `${file}:${line}:${column}: {{${expression}}}: ${message}`);
    };
    return renderPlaceholder(expression, fixture, fail);
  });
}

function renderPlaceholder(expression: string, fixture: Fixture, fail: (message: string) => never): string {
  if (expression === 'fixture.name') return fixture.name;
  // A fact is read from each rep's campaign: left for the rep to fill in (withFacts).
  if (/^fact:[A-Za-z][\w-]*$/.test(expression)) return `{{${expression}}}`;
  if (expression === 'turn') return String(fixture.input.turn);
  if (expression === 'input') {
    const inputs = turnInputs(fixture);
    // Several players' moves of one turn: one item each, in the game's order.
    if (inputs.length > 1) return inputs.map((values) => `- ${Object.values(values).map(text).join(' / ')}`).join('\n');
    const values = Object.entries(fixture.input.values);
    if (values.length === 1) return text(values[0]![1]);
    return values.map(([column, value]) => `- ${column}: ${text(value)}`).join('\n');
  }
  const [head, ...rest] = expression.split(/\s+/);
  const [kind, argument] = splitOnce(
    head!,
    head!.startsWith('table:') || head!.startsWith('recent_turns:') ? ':' : '.',
  );
  switch (kind) {
    case 'input':
      if (!argument || !Object.hasOwn(fixture.input.values, argument))
        fail(`the input has no column "${argument}" (it has ${Object.keys(fixture.input.values).join(', ')})`);
      return turnInputs(fixture)
        .map((values, _i, all) => (all.length > 1 ? `- ${text(values[argument!])}` : text(values[argument!])))
        .join('\n');
    case 'root': {
      const root = fixture.tables[fixture.source.root.table]?.rows.find(
        (row) => String(row[fixture.source.root.key]) === fixture.source.root.value,
      );
      if (!root || !argument || !Object.hasOwn(root, argument)) fail(`the campaign row has no column "${argument}"`);
      return text(root![argument!]);
    }
    case 'table': {
      const table =
        argument !== undefined && Object.hasOwn(fixture.tables, argument)
          ? fixture.tables[argument]!
          : fail(`no table "${argument}" in ${fixture.name}`);
      const unknownOption = rest.find((option) => !option.startsWith('columns='));
      if (unknownOption !== undefined) fail(`unknown option "${unknownOption}" (the one option is columns=A,B)`);
      const listed = optionList(rest, 'columns');
      if (listed?.length === 0) fail('columns= names no column');
      const columns = listed ?? table.columns.map((column) => column.name).filter((name) => !isKeyColumn(table, name));
      for (const column of columns)
        if (!table.columns.some((entry) => entry.name === column)) fail(`${argument} has no column "${column}"`);
      return rowsTable(table.rows, columns);
    }
    case 'recent_turns': {
      const count = Number(argument);
      if (!Number.isInteger(count) || count < 1) fail('expected a whole number of turns, like {{recent_turns:5}}');
      return recentTurns(fixture, count);
    }
    default:
      return fail(
        `unknown placeholder; the known ones are ${PLACEHOLDERS.map((line) => line.split(/\s{2,}/)[0]).join(' ')}`,
      );
  }
}

function recentTurns(fixture: Fixture, count: number): string {
  if (groupsRows(turnModelOf(fixture))) {
    // A game turn of several rows: each row on its own line, the speaker from its role (Player for input rows).
    return turnsInOrder(fixture)
      .slice(-count)
      .map((entry) => {
        const lines = turnLines(fixture, entry).map((line) => `${line.speaker}: ${line.text}`);
        return `**Turn ${entry.turn}.** ${lines.join('\n\n')}`;
      })
      .join('\n\n');
  }
  const turnsTable = fixture.tables[fixture.source.turns.table]!;
  const inputColumns = Object.keys(fixture.input.values);
  const narration = turnsTable.columns.find(
    (column) =>
      /^(text|character varying|varchar|citext)/.test(column.type) &&
      !inputColumns.includes(column.name) &&
      !isKeyColumn(turnsTable, column.name),
  )?.name;
  return turnsInOrder(fixture)
    .slice(-count)
    .map(({ turn, rows: [row] }) => {
      const input = inputColumns.map((column) => text(row![column])).join(' / ');
      return `**Turn ${turn}.** Player: ${input}${narration ? `\n\n${text(row![narration])}` : ''}`;
    })
    .join('\n\n');
}

// The util's table, with a cell's line breaks kept as <br> (a Markdown table row is one line).
function rowsTable(rows: readonly FixtureRow[], columns: readonly string[]): string {
  if (rows.length === 0) return '_(no rows)_';
  const cell = (value: unknown): string => text(value).replace(/\r?\n/g, '<br>');
  return markdownTable([columns, ...rows.map((row) => columns.map((column) => cell(row[column])))]).join('\n');
}

function isKeyColumn(table: FixtureTable, column: string): boolean {
  return table.primaryKey.includes(column) || table.foreignKeys.some((fk) => fk.columns.includes(column));
}

function optionList(options: readonly string[], name: string): string[] | undefined {
  const option = options.find((entry) => entry.startsWith(`${name}=`));
  return option
    ?.slice(name.length + 1)
    .split(',')
    .filter((entry) => entry !== '');
}

function splitOnce(value: string, separator: string): [string, string | undefined] {
  const at = value.indexOf(separator);
  return at < 0 ? [value, undefined] : [value.slice(0, at), value.slice(at + 1)];
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
