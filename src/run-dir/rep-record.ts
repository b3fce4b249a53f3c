import { markdownInline, markdownText } from '../util/markdown-text.js';
import { visibleControls } from '../util/visible-controls.js';
import type { EffectsSummary } from '../scratch/effects/scratch-effects.js';
import type { FactValue } from '../scratch/read-facts.js';
import type { CallSpend } from '../model/spend.js';
import type { ToolCall } from '../sut/tool-call.js';
import { toolCallsMarkdown } from './tool-calls-markdown.js';
import type { SutRequest } from '../sut/sut-request.js';
import { turnsMarkdown, type RolloutRecord, type TurnRecord } from './rollout-record.js';

/** One rep as recorded in `reps/FIXTURE/rep-NN.json`. */
export interface RepRecord {
  fixture: string;
  rep: number;
  attempt: number;
  startedAt: string;
  request: SutRequest;
  response: string | null;
  /** In a rollout `turn` says which turn ended it (the player's input, the SUT's call or its case file). */
  error: {
    cause: string;
    message: string;
    stage: 'seed' | 'sut' | 'teardown' | 'player' | 'case-file' | 'facts';
    turn?: number;
  } | null;
  exit: { code: number | null; signal: string | null } | null;
  stdoutTail?: string;
  stderrTail?: string;
  /** The tools the SUT reported calling, in order (a one-turn rep; a rollout keeps them per turn). */
  toolCalls?: ToolCall[];
  /** Tokens and cost of the SUT's call, when it reported usage or a cost. */
  spend?: CallSpend;
  /** The model ids the SUT's responses reported (an http SUT's `model` field), each once in the order first seen. */
  models?: string[];
  /** Milliseconds; teardown includes reading what the SUT changed (one transaction). */
  timings: { seedMs: number; sutMs: number; teardownMs: number; totalMs: number };
  scratch: { id: string; strategy: string } | null;
  effects: EffectsSummary | null;
  /**
   * The question's facts as the campaign held them before the SUT's call (what its case file and the checks use)
   * and after it (what the SUT made of them).
   */
  facts?: Record<string, { before: FactValue; after?: FactValue }>;
  /** What teardown could not delete because rows outside the campaign point at it (the SUT wrote outside). */
  outside?: string[];
  /** Why changes outside the campaign could not be checked (the shared rows could not be read before the SUT). */
  outsideUnchecked?: string;
  /** A rollout (`turns: K` in the question): how far it went; `response` then holds the whole transcript. */
  rollout?: RolloutRecord;
  /** A rollout's turns as played, in order. */
  turns?: TurnRecord[];
}

/** The rep as a person reads it: what was asked, what came back, and what went wrong. */
export function repMarkdown(record: RepRecord): string {
  const lines = [
    `# ${record.fixture}, rep ${record.rep}`,
    '',
    `Turn ${record.request.turn}, started ${record.startedAt}, ${Math.round(record.timings.totalMs)} ms in all (SUT ${Math.round(record.timings.sutMs)} ms).`,
    '',
  ];
  lines.push(
    '## Player input',
    '',
    ...Object.entries(record.request.input).map(
      ([column, value]) => `- ${column}: ${markdownInline(typeof value === 'string' ? value : JSON.stringify(value))}`,
    ),
    '',
  );
  if (record.error) {
    lines.push(`## Error (${record.error.stage}: ${record.error.cause})`, '', markdownText(record.error.message), '');
    if (record.stdoutTail) lines.push('stdout (end):', '', fence(record.stdoutTail), '');
    if (record.stderrTail) lines.push('stderr (end):', '', fence(record.stderrTail), '');
  }
  // A rollout shows its turns one by one (its response is the same transcript, joined).
  if (record.turns) lines.push(...turnsMarkdown(record.turns, record.rollout));
  else if (record.response !== null) lines.push('## Response', '', markdownText(record.response), '');
  if (record.toolCalls && record.toolCalls.length > 0)
    lines.push('## Tool calls', '', ...toolCallsMarkdown(record.toolCalls), '');
  if (record.spend)
    lines.push(
      `SUT usage: ${record.spend.inputTokens} input and ${record.spend.outputTokens} output tokens${record.spend.cost !== null ? `, cost ${record.spend.cost}` : ''}.`,
      '',
    );
  if (record.effects) {
    const counts = (label: string, values: Record<string, number>): string[] =>
      Object.entries(values).map(([table, count]) => `- ${label} ${count} row(s) of ${table}`);
    const changed = [
      ...counts('inserted', record.effects.inserted),
      ...counts('updated', record.effects.updated),
      ...counts('deleted', record.effects.deleted),
    ];
    lines.push(
      '## What the SUT changed in its scratch campaign',
      '',
      ...(changed.length > 0 ? changed : ['nothing']),
      '',
    );
  }
  if (record.outside && record.outside.length > 0)
    lines.push('## Outside its campaign', '', ...record.outside.map((line) => `- ${markdownInline(line)}`), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

// A fence longer than any run of backticks inside, so the text cannot close it (CommonMark).
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}\n${visibleControls(text.trimEnd())}\n${ticks}`;
}
