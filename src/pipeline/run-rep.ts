import type { Fixture } from '../fixture/format.js';
import type { ScratchCampaign, ScratchSession } from '../scratch/scratch-session.js';
import type { EffectsSummary, TableEffects } from '../scratch/effects/scratch-effects.js';
import { compareSharedRows, type SharedSnapshot } from '../scratch/effects/shared-snapshot.js';
import type { SutCaller } from '../sut/call-sut.js';
import { passwordForms, withoutSecrets } from '../util/redact-password.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import type { SutOutcome, SutRequest } from '../sut/sut-request.js';
import { firstLine, guardedSutCall } from '../sut/guarded-sut-call.js';
import { callSpend, type Price } from '../model/spend.js';
import type { OpenedRollout, RolloutSpec } from '../rollout/run-rollout.js';
import { turnInputs } from '../fixture/turns/turn-rows.js';
import type { FactQuery } from '../scratch/read-facts.js';
import { withFacts } from '../question/case-file.js';

/** One rep to run: the fixture, its rendered case file, which rep and which attempt. */
export interface RepJob {
  fixture: Fixture;
  fixtureFile: string;
  caseFile: string;
  rep: number;
  attempt: number;
  /** True when other reps run at the same time (a change outside the campaign may be theirs). */
  concurrent?: boolean;
  /** Runs the SUT call when a SUT slot is free (`--concurrency` bounds SUT calls, not seeds and teardowns). */
  sutSlot?: <T>(call: () => Promise<T>) => Promise<T>;
  /** Secrets the SUT can see (API keys, tokens), removed from the record with the database password. */
  secrets?: readonly string[];
  /** The price of the SUT's model, for a call that reports tokens but no cost. */
  price?: Price | undefined;
  /** Several turns in this rep's campaign (`turns: K` in the question); absent for one turn. */
  rollout?: RolloutSpec;
  /** The question's facts, read before the SUT's call (into the case file's `{{fact:NAME}}`) and after it. */
  facts?: Record<string, FactQuery>;
}

/**
 * Runs one rep: seed a scratch campaign, call the SUT, read what it changed, and tear the campaign down in
 * `finally`, whatever happened. Every failure becomes the record's error with the stage it happened in; nothing
 * here throws for a failed rep.
 */
export async function runRep(session: ScratchSession, callSut: SutCaller, job: RepJob): Promise<RepRecord> {
  const started = performance.now();
  const timings = { seedMs: 0, sutMs: 0, teardownMs: 0, totalMs: 0 };
  const inputs = turnInputs(job.fixture);
  const request: SutRequest = {
    campaign: '',
    turn: job.fixture.input.turn,
    input: job.fixture.input.values,
    ...(inputs.length > 1 ? { inputs } : {}),
    caseFile: job.caseFile,
    fixture: job.fixture.name,
    rep: job.rep,
  };
  const record: RepRecord = {
    fixture: job.fixture.name,
    rep: job.rep,
    attempt: job.attempt,
    startedAt: new Date().toISOString(),
    request,
    response: null,
    error: null,
    exit: null,
    timings,
    scratch: null,
    effects: null,
  };
  let scratch: ScratchCampaign;
  try {
    scratch = await session.seed(job.fixture, { file: job.fixtureFile });
  } catch (error) {
    record.error = { stage: 'seed', cause: 'seed', message: firstLine(error) };
    timings.seedMs = timings.totalMs = performance.now() - started;
    return withoutSecrets(record, job.secrets ?? []);
  }
  timings.seedMs = performance.now() - started;
  record.scratch = { id: scratch.id, strategy: scratch.strategy };
  request.campaign = scratch.key;
  let sharedBefore: SharedSnapshot | undefined;
  let horizon: string | undefined;
  let opening: Promise<OpenedRollout> | undefined;
  // Loaded for a rollout's rep only: a run of single turns never loads rollout/ (nor the simulated player's model).
  const rollouts = job.rollout ? import('../rollout/run-rollout.js') : undefined;
  try {
    // The shared rows and the write horizon before the SUT runs, to tell afterwards what it changed outside its campaign.
    const reading = session.beforeSut(scratch, job.fixture).catch((error: unknown) => {
      // Not a reason to lose the rep, but nothing may then claim the SUT left everything outside untouched.
      record.outsideUnchecked = firstLine(error);
      return undefined;
    });
    // A rollout's reader opens beside that read: both only read, each on a connection of its own, and both are done
    // before the first call, so the rep waits for one round trip instead of two. (Handled here, awaited below.)
    opening = job.rollout
      ? rollouts!.then(({ openRollout }) => openRollout(session, scratch, { ...job, rollout: job.rollout! }))
      : undefined;
    opening?.catch(() => {});
    const before = await reading;
    sharedBefore = before?.shared;
    horizon = before?.horizon;
    if (job.facts && !(await readFacts(session, scratch, job.facts, record, 'before'))) {
      // A fact the campaign does not answer is the rep's error, named; the SUT is not called.
    } else if (job.rollout) {
      // The rollout's turns are played in this campaign; what they changed as a whole is read by the teardown below.
      const { playRollout } = await rollouts!;
      await playRollout(session, callSut, scratch, { ...job, rollout: job.rollout }, record, await opening!);
    } else {
      await callOnce(callSut, scratch, job, record);
    }
    if (job.facts && record.facts) await readFacts(session, scratch, job.facts, record, 'after');
  } finally {
    // The rollout's own connection to a clone ends first: the teardown drops that database.
    await opening?.then(
      (opened) => opened.close(),
      () => {},
    );
    const teardownStarted = performance.now();
    await tearDownRep(scratch, job, record, { horizon, sharedBefore });
    timings.teardownMs = performance.now() - teardownStarted;
    timings.totalMs = performance.now() - started;
  }
  return withoutSecrets(record, [...passwordForms(scratch.databaseUrl), ...(job.secrets ?? [])]);
}

/**
 * Reads the question's facts before the SUT's call (recorded, and put into the request's case file for
 * `{{fact:NAME}}`) or after it (what it made of them). One that cannot be read is the rep's error, naming it (after
 * the call, unless the rep has one already); false then.
 */
async function readFacts(
  session: ScratchSession,
  scratch: ScratchCampaign,
  facts: Record<string, FactQuery>,
  record: RepRecord,
  when: 'before' | 'after',
): Promise<boolean> {
  try {
    const values = await session.readFacts(scratch, facts);
    if (when === 'after') for (const [name, value] of Object.entries(values)) record.facts![name]!.after = value;
    else {
      record.facts = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { before: value }]));
      record.request.caseFile = withFacts(record.request.caseFile, values);
    }
    return true;
  } catch (error) {
    const message = firstLine(error);
    if (when === 'before') record.error = { stage: 'facts', cause: 'query', message };
    else record.error ??= { stage: 'facts', cause: 'query', message: `after the SUT: ${message}` };
    return false;
  }
}

/** A one-turn rep's SUT call, in its slot: the response, tool calls, time, spend, model, error, exit and streams recorded. */
async function callOnce(callSut: SutCaller, scratch: ScratchCampaign, job: RepJob, record: RepRecord): Promise<void> {
  const { request, timings } = record;
  const call = guardedSutCall(callSut, {
    databaseUrl: scratch.databaseUrl,
    request,
    ...(job.secrets ? { secrets: job.secrets } : {}),
  });
  const outcome: SutOutcome = await (job.sutSlot ? job.sutSlot(call) : call());
  timings.sutMs = outcome.ms;
  record.response = outcome.response ?? null;
  if (outcome.toolCalls) record.toolCalls = outcome.toolCalls;
  if (outcome.usage || outcome.cost !== undefined) record.spend = callSpend(outcome.usage, outcome.cost, job.price);
  if (outcome.model) record.models = [outcome.model];
  if (outcome.error) record.error = { stage: 'sut', ...outcome.error };
  if (outcome.exitCode !== undefined || outcome.signal !== undefined)
    record.exit = { code: outcome.exitCode ?? null, signal: outcome.signal ?? null };
  if (outcome.stdoutTail !== undefined && outcome.error) record.stdoutTail = outcome.stdoutTail;
  if (outcome.stderrTail !== undefined && outcome.stderrTail !== '') record.stderrTail = outcome.stderrTail;
}

/**
 * Tears the rep's campaign down, reading what the SUT changed from the teardown's own walk: the effects, and rows
 * outside the campaign it changed (shared rows against the snapshot before the SUT ran).
 */
async function tearDownRep(
  scratch: ScratchCampaign,
  job: RepJob,
  record: RepRecord,
  before: { horizon: string | undefined; sharedBefore: SharedSnapshot | undefined },
): Promise<void> {
  const { horizon, sharedBefore } = before;
  try {
    // What the SUT changed is read by the teardown itself, from the walk it does anyway, in its transaction.
    const report = await scratch.teardown({ effects: true, horizon });
    if (report.effects) {
      record.effects = summarize(report.effects.tables);
      const outside = [
        ...(sharedBefore ? compareSharedRows(sharedBefore, report.effects.shared) : []),
        ...(report.effects.outside ?? []),
      ];
      // With reps side by side, another rep's SUT may have made the change: say so rather than blame this one.
      if (outside.length > 0)
        record.outside = job.concurrent ? outside.map((line) => `${line}; other reps ran at the same time`) : outside;
    }
  } catch (error) {
    // Rows outside the campaign that point into it (the SUT wrote outside) stop the teardown: report, never delete.
    record.outside = [...(record.outside ?? []), firstLine(error)];
    // A SUT that timed out because what it left running holds a lock: the rep's error says both, not only "timeout".
    record.error = record.error
      ? { ...record.error, message: `${record.error.message}; then the teardown failed: ${firstLine(error)}` }
      : { stage: 'teardown', cause: 'teardown', message: firstLine(error) };
  }
}

function summarize(effects: readonly TableEffects[]): EffectsSummary {
  const summary: EffectsSummary = { inserted: {}, updated: {}, deleted: {}, insertedRows: {} };
  for (const table of effects) {
    if (table.inserted > 0) summary.inserted[table.table] = table.inserted;
    if (table.updated > 0) summary.updated[table.table] = table.updated;
    if (table.deleted > 0) summary.deleted[table.table] = table.deleted;
    if (table.insertedRows.length > 0) summary.insertedRows[table.table] = table.insertedRows;
    if (table.updatedRows.length > 0) (summary.updatedRows ??= {})[table.table] = table.updatedRows;
    if (table.deletedRows.length > 0) (summary.deletedRows ??= {})[table.table] = table.deletedRows;
  }
  return summary;
}
