import type { Checks } from '../question/checks-format.js';
import type { FactQuery, FactValue } from '../scratch/read-facts.js';
import type { ProbeRule } from '../question/rollout-format.js';
import { factRuleFailures } from '../question/check-screens.js';
import { factPlaceholders, withFacts } from '../question/case-file.js';
import type { Fixture, FixtureRow } from '../fixture/format.js';
import type { GameGraph } from '../fixture/graph/game-graph.js';
import { applyChecks } from '../checks/run-checks.js';
import type { HiddenValues } from '../checks/hidden-checks.js';
import { hasScreens, repScreens, type ScreenChecks } from '../checks/rep-screens.js';
import type { ScratchCampaign, ScratchSession } from '../scratch/scratch-session.js';
import { TurnEffectsReader } from '../scratch/effects/turn-effects.js';
import type { Queryable } from '../db/introspect.js';
import pg from 'pg';
import type { SutCaller } from '../sut/call-sut.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import { transcriptText, type PlayerSource, type TranscriptTurn } from './rollout-inputs.js';
import type { TurnRecord } from '../run-dir/rollout-record.js';
import type { SutRequest } from '../sut/sut-request.js';
import { firstLine, guardedSutCall } from '../sut/guarded-sut-call.js';
import { callSpend, type CallSpend, type Price } from '../model/spend.js';
import { turnInputs } from '../fixture/turns/turn-rows.js';

/** What a rep needs to play several turns: how many, who plays, how case files render, and when to stop. */
export interface RolloutSpec {
  turns: number;
  player: PlayerSource;
  /** Renders the case file against a fixture standing for the campaign as it is before a turn. */
  render: (view: Fixture) => Promise<string>;
  /** The game resolved against the database (turns table, order, root). */
  graph: GameGraph;
  /** `game.turns.output`: turnkit writes a turn's row when the SUT wrote none. */
  output?: readonly string[] | undefined;
  /** The question's checks, applied to each turn. */
  checks?: Checks | undefined;
  /** The question's tool rules and hidden rows, applied to each turn with its calls (and the fixture's hidden values). */
  screens?: ScreenChecks | undefined;
  hidden?: readonly HiddenValues[] | undefined;
  stopOnFail: boolean;
  /** The question's probes of state tracking, and the facts they read (each turn's, before its SUT call). */
  probes?: { rules: readonly ProbeRule[]; facts: Readonly<Record<string, FactQuery>> } | undefined;
}

/** The parts of a rep a rollout plays inside its scratch campaign (seeding and teardown stay the rep's). */
export interface RolloutTurnsJob {
  fixture: Fixture;
  /** The fixture's file, as the rep seeded it (the session's cached plan of that seed). */
  fixtureFile: string;
  caseFile: string;
  rep: number;
  sutSlot?: <T>(call: () => Promise<T>) => Promise<T>;
  secrets?: readonly string[];
  /** The price of the SUT's model, for a call that reports tokens but no cost. */
  price?: Price | undefined;
  rollout: RolloutSpec;
}

/**
 * Plays turns N..N+K-1 of a rollout in one seeded scratch campaign: each call gets its turn, that turn's input, the
 * case file rendered against the campaign as it stands (played turns included) and the transcript so far; between
 * calls turnkit reads what the turn changed (a per-turn delta, never a walk of the campaign) and, for a SUT that only
 * answers, writes the turn's row. A turn that errors ends the rollout (earlier turns kept); with `stopOn: fail` so
 * does a turn that fails its checks. Fills the record's `turns`, `rollout`, `response` (the transcript), `error`
 * and `timings.sutMs`; nothing here throws for a failed turn.
 */
export async function playRollout(
  session: ScratchSession,
  callSut: SutCaller,
  scratch: ScratchCampaign,
  job: RolloutTurnsJob,
  record: RepRecord,
  opened: OpenedRollout,
): Promise<void> {
  const { reader, client } = opened;
  record.turns = [];
  record.rollout = { turns: job.rollout.turns, played: 0 };
  if (reader.untracked.length > 0) record.rollout.untracked = reader.untracked;
  const play: RolloutPlay = { session, callSut, scratch, job, record, client, reader, transcript: [], played: [] };
  for (let index = 0; index < job.rollout.turns; index++) if (!(await playTurn(play, index))) break;
  record.response = play.transcript.length > 0 ? transcriptText(play.transcript) : null;
}

/** A rollout's per-turn reader, and the connection its reads and turnkit's turn rows go through. */
export interface OpenedRollout {
  reader: TurnEffectsReader;
  /** The session's pool, or for a database of the campaign's own (`database`) a connection to it. */
  client: Queryable;
  /** Ends a connection of the rollout's own: before teardown, which drops that database. */
  close(): Promise<void>;
}

/**
 * Opens a rollout's per-turn reader on its seeded campaign: the campaign's keys and the write horizon, read before
 * the first turn's call (`playRollout` plays with it). A rep opens it beside its read of the shared rows.
 */
export async function openRollout(
  session: ScratchSession,
  scratch: ScratchCampaign,
  job: Pick<RolloutTurnsJob, 'fixture' | 'fixtureFile' | 'rollout'>,
): Promise<OpenedRollout> {
  // The fixture's plan is the session's (cached since the seed): inserted rows then show the fixture's keys.
  const { plan } = await session.prepare(job.fixture, { file: job.fixtureFile });
  const seeded = { plan, keyMap: scratch.keyMap };
  // A clone holds the campaign under the fixture's own keys: read through the session's pool, the same key would
  // name the live campaign, and turnkit's turn rows would go into it.
  const own =
    scratch.databaseUrl === session.db.url ? undefined : new pg.Client({ connectionString: scratch.databaseUrl });
  const close = async (): Promise<void> => own?.end().catch(() => {});
  try {
    own?.on('error', () => {});
    await own?.connect();
    const client = own ?? session.db.pool;
    // Its statements are the same text every turn and every rep: named, so each connection plans them once.
    const reader = await TurnEffectsReader.open(client, job.rollout.graph, scratch.key, seeded, { named: true });
    return { reader, client, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A rollout being played: its rep's parts, and what the turns so far left (transcript, rows turnkit wrote). */
interface RolloutPlay {
  session: ScratchSession;
  callSut: SutCaller;
  scratch: ScratchCampaign;
  job: RolloutTurnsJob;
  record: RepRecord;
  client: Queryable;
  reader: TurnEffectsReader;
  transcript: TranscriptTurn[];
  played: FixtureRow[];
}

/** Ends the rollout at a turn: the turn's error, the rep's (with the stage and turn), `stopped: error`. */
type EndTurn = (stage: 'player' | 'sut' | 'case-file', error: { cause: string; message: string }) => void;

/** Plays one turn: its input, its case file, the SUT's call, what it changed, its checks; false when it ends the rollout. */
async function playTurn(play: RolloutPlay, index: number): Promise<boolean> {
  const { record, job } = play;
  const turn = job.fixture.input.turn + index;
  const entry: TurnRecord = {
    turn,
    input: {},
    caseFile: '',
    response: null,
    error: null,
    timings: { playerMs: 0, sutMs: 0, turnkitMs: 0 },
    effects: null,
    turnRow: 'none',
  };
  const end: EndTurn = (stage, error) => {
    entry.error = error;
    record.error = { stage, ...error, turn };
    record.rollout!.stopped = 'error';
  };
  record.turns!.push(entry);
  record.rollout!.played = record.turns!.length;
  if (!(await takeInput(play, entry, index, end))) return false;
  const ownStarted = performance.now();
  if (!(await setUpTurn(play, entry, index, end))) return false;
  const probed = await readProbes(play, entry);
  let own = performance.now() - ownStarted;
  const outcome = await callTurn(play, entry, index);
  if (probed && probed.length > 0) judgeProbes(probed, entry);
  const afterStarted = performance.now();
  try {
    play.played.push(...(await readTurnEffects(play.reader, play.client, job.rollout, entry, Boolean(outcome.error))));
  } catch (error) {
    end('sut', { cause: 'effects', message: firstLine(error) });
  }
  own += performance.now() - afterStarted;
  entry.timings.turnkitMs = own;
  play.transcript.push({ turn, input: entry.input, response: entry.response });
  if (outcome.error) {
    end('sut', outcome.error);
    return false;
  }
  if (entry.error) return false;
  return checkTurn(play, entry);
}

type ProbeRead = { rule: ProbeRule; read: FactValue | Error }[];

// The facts the turn needs, read from the campaign as it stands before the SUT's call (after turnkit wrote the
// player's row): those its probes check the narration against, and those its case file shows (`{{fact:NAME}}`,
// filled in here). A fact that cannot be read fails the probes (the case file keeps its placeholder).
async function readProbes(play: RolloutPlay, entry: TurnRecord): Promise<ProbeRead | undefined> {
  const probes = play.job.rollout.probes;
  const due = probes?.rules.filter((rule) => rule.turns === undefined || rule.turns.includes(entry.turn)) ?? [];
  const facts = probes?.facts ?? {};
  const names = [...new Set([...due.map((rule) => rule.fact), ...factPlaceholders(entry.caseFile)])].filter((name) =>
    Object.hasOwn(facts, name),
  );
  if (names.length === 0) return undefined;
  try {
    const values = await play.session.readFacts(play.scratch, Object.fromEntries(names.map((n) => [n, facts[n]!])));
    entry.caseFile = withFacts(entry.caseFile, values);
    return due.map((rule) => ({ rule, read: values[rule.fact]! }));
  } catch (error) {
    return due.map((rule) => ({ rule, read: error instanceof Error ? error : new Error(String(error)) }));
  }
}

// Each probe's verdict on the turn's response; a turn with no response agrees with nothing.
function judgeProbes(probed: ProbeRead, entry: TurnRecord): void {
  entry.probes = probed.map(({ rule, read }) => {
    if (read instanceof Error) return { fact: rule.fact, value: null, mark: 'error' as const, reason: firstLine(read) };
    if (entry.response === null)
      return { fact: rule.fact, value: read.value, mark: 'error' as const, reason: 'the turn has no response' };
    const failures = factRuleFailures(rule, read, entry.response);
    return {
      fact: rule.fact,
      value: read.value,
      mark: failures.length === 0 ? ('agree' as const) : ('disagree' as const),
      reason: failures.length === 0 ? 'agrees' : failures.join('; '),
    };
  });
}

/** The turn's input: the fixture's for the first turn, the player's move after it (false when the player failed). */
async function takeInput(play: RolloutPlay, entry: TurnRecord, index: number, end: EndTurn): Promise<boolean> {
  if (index === 0) {
    entry.input = play.job.fixture.input.values;
    const inputs = turnInputs(play.job.fixture);
    if (inputs.length > 1) entry.inputs = inputs;
    return true;
  }
  const move = await play.job.rollout.player.next(entry.turn, index, play.transcript);
  entry.timings.playerMs = move.ms;
  if ('error' in move) {
    end('player', move.error);
    return false;
  }
  entry.input = move.values;
  if (move.more) entry.inputs = [move.values, ...move.more];
  return true;
}

/** What turnkit does before the SUT's call: the player's row written (a game of several rows a turn), the case file. */
async function setUpTurn(play: RolloutPlay, entry: TurnRecord, index: number, end: EndTurn): Promise<boolean> {
  const { job } = play;
  const inputRow = index > 0 ? gameTurnRow(job.rollout.graph, entry.turn, 'input') : undefined;
  if (inputRow) {
    // A game whose turns are several rows: the player's row (every player's, in order) is in the database when the
    // SUT plays the turn.
    try {
      for (const input of entry.inputs ?? [entry.input])
        play.played.push(await play.reader.writeInput(play.client, { input, response: '', output: [], set: inputRow }));
    } catch (error) {
      end('player', { cause: 'input-row', message: firstLine(error) });
      return false;
    }
  }
  try {
    entry.caseFile =
      index === 0 ? job.caseFile : await job.rollout.render(viewAt(job.fixture, play.played, entry.turn, entry.input));
  } catch (error) {
    end('case-file', { cause: 'case-file', message: firstLine(error) });
    return false;
  }
  return true;
}

/** The SUT's call for a turn, in its slot: the response, its time and the rep's spend recorded. */
async function callTurn(play: RolloutPlay, entry: TurnRecord, index: number) {
  const { job, record, scratch } = play;
  const request: SutRequest = {
    campaign: scratch.key,
    turn: entry.turn,
    input: entry.input,
    ...(entry.inputs ? { inputs: entry.inputs } : {}),
    caseFile: entry.caseFile,
    fixture: job.fixture.name,
    rep: job.rep,
    transcript: [...play.transcript],
  };
  if (index === 0) record.request = { ...request, transcript: [] };
  const call = guardedSutCall(play.callSut, {
    databaseUrl: scratch.databaseUrl,
    request,
    ...(job.secrets ? { secrets: job.secrets } : {}),
  });
  const { outcome, waited } = await inSlot(job.sutSlot, call);
  entry.timings.sutMs = outcome.ms;
  entry.timings.waitMs = waited;
  record.timings.sutMs += outcome.ms;
  entry.response = outcome.response ?? null;
  if (outcome.toolCalls) entry.toolCalls = outcome.toolCalls;
  // The rep's spend is every turn's: a rollout of K calls costs K calls.
  if (outcome.usage || outcome.cost !== undefined)
    record.spend = addCall(record.spend, callSpend(outcome.usage, outcome.cost, job.price));
  if (outcome.model && !record.models?.includes(outcome.model))
    record.models = [...(record.models ?? []), outcome.model];
  return outcome;
}

/** The question's checks on a turn; false when it failed them under `stopOn: fail`. */
function checkTurn(play: RolloutPlay, entry: TurnRecord): boolean {
  const { rollout } = play.job;
  const screens = rollout.screens ?? {};
  if (!rollout.checks && !hasScreens(screens)) return true;
  const seen = turnAsRecord(play.record, entry);
  const verdict = applyChecks(rollout.checks, seen, repScreens(screens, seen, rollout.hidden));
  entry.check = verdict;
  if (verdict.mark === 'fail' && rollout.stopOnFail) {
    play.record.rollout!.stopped = 'fail';
    return false;
  }
  return true;
}

/**
 * The columns turnkit sets on a row it writes for a game whose turns are several rows: the game's turn column to the
 * turn's number and the role column to the player's (`role.input[0]`) or the output's (`role.output`); undefined
 * for a game with one row per turn, whose one row holds the input and the output alike.
 */
export function gameTurnRow(
  graph: GameGraph,
  turn: number,
  kind: 'input' | 'output',
): Record<string, unknown> | undefined {
  const { turnColumn, roleColumn, model } = graph.turnModel;
  if (!roleColumn || !model.role) return undefined;
  const role = kind === 'input' ? model.role.input[0] : model.role.output;
  return {
    ...(turnColumn ? { [turnColumn.name]: turn } : {}),
    ...(role !== undefined ? { [roleColumn.name]: role } : {}),
  };
}

/** A fixture standing for the campaign before a turn: its own turns, then the ones played, and this turn's input. */
export function viewAt(
  fixture: Fixture,
  played: readonly FixtureRow[],
  turn: number,
  input: Record<string, unknown>,
): Fixture {
  const name = fixture.source.turns.table;
  const table = fixture.tables[name]!;
  return {
    ...fixture,
    input: { turn, values: input },
    tables: { ...fixture.tables, [name]: { ...table, rows: [...table.rows, ...played] } },
  };
}

// One turn seen as a rep, for the question's checks: its response and what it changed.
function turnAsRecord(record: RepRecord, entry: TurnRecord): RepRecord {
  const effects = entry.effects ?? { inserted: {}, updated: {}, deleted: {}, insertedRows: {} };
  return {
    ...record,
    response: entry.response,
    toolCalls: entry.toolCalls,
    error: null,
    effects,
    outside: record.outside ?? [],
  };
}

// A turn's call added to the turns' before it; the cost stays unknown (null) once one call's cost is unknown.
function addCall(total: CallSpend | undefined, call: CallSpend): CallSpend {
  if (!total) return call;
  return {
    inputTokens: total.inputTokens + call.inputTokens,
    outputTokens: total.outputTokens + call.outputTokens,
    cost: total.cost === null || call.cost === null ? null : Math.round((total.cost + call.cost) * 1e9) / 1e9,
  };
}

/** Runs a turn's SUT call in its slot (when the rep has one): the outcome, and how long it waited for the slot. */
async function inSlot<T>(
  sutSlot: RolloutTurnsJob['sutSlot'],
  call: () => Promise<T>,
): Promise<{ outcome: T; waited: number }> {
  const slotStarted = performance.now();
  let waited = 0;
  const outcome = await (sutSlot
    ? sutSlot(() => {
        waited = performance.now() - slotStarted;
        return call();
      })
    : call());
  return { outcome, waited };
}

/**
 * Reads what a turn changed into its entry and returns the turn's rows as played (the SUT's, or the one turnkit
 * wrote): for a SUT that only answers, the read writes the turn's row too, when the SUT wrote none (one statement).
 */
async function readTurnEffects(
  reader: TurnEffectsReader,
  client: Queryable,
  rollout: RolloutSpec,
  entry: TurnRecord,
  failed: boolean,
): Promise<FixtureRow[]> {
  const outputRow = gameTurnRow(rollout.graph, entry.turn, 'output');
  const write =
    rollout.output && entry.response !== null && !failed
      ? outputRow
        ? { input: {}, response: entry.response, output: rollout.output, set: outputRow }
        : { input: entry.input, response: entry.response, output: rollout.output }
      : undefined;
  const delta = await reader.read(client, write);
  entry.effects = delta.effects;
  if (delta.turnRows.length > 0) {
    entry.turnRow = 'sut';
    return delta.turnRows;
  }
  if (delta.written) {
    entry.turnRow = 'turnkit';
    return [delta.written];
  }
  return [];
}
