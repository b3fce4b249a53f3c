import type { MarkingSession } from '../../marking/marking-session.js';
import { rolloutView, type RolloutView } from '../turn-views.js';
import type { BlindRep, MarkerView } from '../view-data.js';
import type { ToolCall } from '../../sut/tool-call.js';

/**
 * A blind re-mark's reps as the page gets them: no fixture name, rep number or other marks; a case file is shared by
 * its fixture's reps, so it is sent once and each rep names it by an index.
 */
export function blindReps(session: MarkingSession): Pick<MarkerView, 'blindReps' | 'blindCaseFiles'> {
  const { caseFiles, caseFileOf } = blindCaseFiles(session);
  const reps = session.reps.map((rep, position) => blindRep(session, rep, caseFileOf[position]!));
  return { blindReps: reps, blindCaseFiles: caseFiles };
}

/** A blind session's case files, each once in order of first use, and per position the index of its rep's. */
export function blindCaseFiles(session: MarkingSession): { caseFiles: string[]; caseFileOf: number[] } {
  const caseFiles: string[] = [];
  const seen = new Map<string, number>();
  const caseFileOf = session.reps.map((rep) => {
    let index = seen.get(rep.caseFile);
    if (index === undefined) {
      index = caseFiles.push(rep.caseFile) - 1;
      seen.set(rep.caseFile, index);
    }
    return index;
  });
  return { caseFiles, caseFileOf };
}

/** One rep of a blind re-mark as the page gets it, its case file named by `caseFile` (see `blindCaseFiles`). */
export function blindRep(session: MarkingSession, rep: MarkingSession['reps'][number], caseFile: number): BlindRep {
  const rollout = blindRollout(session, rep.record);
  return {
    // Every text of a rep passes through the session's masking, as the terminal marker shows it.
    response: rollout ? null : shownOrNull(session, rep.record?.response ?? null),
    error: shownOrNull(session, errorText(rep.record)),
    caseFile,
    ...(rollout ? { rollout } : {}),
    ...(!rollout && rep.record?.toolCalls?.length ? { toolCalls: shownCalls(session, rep.record.toolCalls) } : {}),
  };
}

// Blind: a turn's texts pass through the session's scrubber, as the terminal marker shows them.
function blindRollout(
  session: MarkingSession,
  record: MarkingSession['reps'][number]['record'],
): RolloutView | undefined {
  const rollout = rolloutView(record);
  if (!rollout) return undefined;
  const shown = (text: string | null): string | null => (text === null ? null : session.shown(text));
  return {
    ...rollout,
    list: rollout.list.map((turn) => ({
      ...turn,
      input: turn.input.map(([column, value]): [string, string] => [column, session.shown(value)]),
      response: shown(turn.response),
      ...(turn.toolCalls ? { toolCalls: shownCalls(session, turn.toolCalls) } : {}),
      error: turn.error ? { ...turn.error, message: session.shown(turn.error.message) } : null,
      check: turn.check ? { ...turn.check, reason: session.shown(turn.check.reason) } : null,
    })),
  };
}

// A blind marker sees calls through the same masking as the response: every string inside them.
function shownCalls(session: MarkingSession, calls: readonly ToolCall[]): ToolCall[] {
  const mask = (value: unknown): unknown => {
    if (typeof value === 'string') return session.shown(value);
    if (Array.isArray(value)) return value.map(mask);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, mask(inner)]));
    return value;
  };
  return calls.map((call) => mask(call) as ToolCall);
}

function shownOrNull(session: MarkingSession, text: string | null): string | null {
  return text === null ? null : session.shown(text);
}

function errorText(record: MarkingSession['reps'][number]['record']): string | null {
  if (!record) return 'NOT RUN: this rep has no record yet.';
  if (!record.error) return null;
  return [
    `ERROR (${record.error.stage}: ${record.error.cause}): ${record.error.message}`,
    record.stdoutTail ? `stdout (end):\n${record.stdoutTail}` : '',
    record.stderrTail ? `stderr (end):\n${record.stderrTail}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
