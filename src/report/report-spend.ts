import type { Run } from '../run-dir/read-run.js';
import { JUDGE_CACHE_FILE } from '../run-dir/run-file-names.js';
import { repId, type RunState } from '../run-dir/run-state.js';
import { repSpend } from '../pipeline/run-spend.js';
import { addSpend, NO_SPEND, sumSpend, type CallSpend, type Spend } from '../model/spend.js';
import { leanCallSpend } from '../run-dir/lean-shapes.js';
import { judgeLines, verdictRep } from '../run-dir/judge-lines.js';

/** What a fixture's reps (or a whole run) spent: the SUT's calls and the judges' apart. */
export interface SpendSplit {
  sut: Spend;
  judges: Spend;
}

/** A run's spend: SUT and judges apart, and their total. */
export interface RunSpend extends SpendSplit {
  total: Spend;
}

/**
 * The spend of every judge verdict in a run directory (`judge-MODEL.jsonl`), by rep: what each answer cost when it
 * was received (a verdict taken from the cache carries the spend kept with it: the cost of the marks, paid once).
 */
export async function readJudgeSpends(run: Run): Promise<Map<string, CallSpend[]>> {
  const spends = new Map<string, CallSpend[]>();
  for (const name of await run.fileNames()) {
    if (!/^judge-.+\.jsonl$/.test(name) || name === JUDGE_CACHE_FILE) continue;
    const text = await run.text(name).catch(() => '');
    for (const { entry } of judgeLines(text)) {
      const rep = verdictRep(entry);
      // callSpendSchema's lean shape, which says exactly what the schema says of a spend: no zod to load.
      if (!entry || !rep || !leanCallSpend(entry.spend)) continue;
      const id = repId(rep);
      spends.set(id, [...(spends.get(id) ?? []), entry.spend as CallSpend]);
    }
  }
  return spends;
}

/** What the reps `ids` spent: their records' SUT calls and their judges' verdicts. */
export function repsSpend(
  ids: readonly string[],
  state: RunState,
  judges: ReadonlyMap<string, CallSpend[]>,
): SpendSplit {
  return {
    // Counted in calls: a rollout rep's K turns are K SUT calls.
    sut: sumSpend(ids.map((id) => repSpend(state.records.get(id)))),
    judges: sumSpend(ids.flatMap((id) => judges.get(id) ?? [])),
  };
}

/** A run's spend from its fixtures'. */
export function totalSpend(fixtures: readonly { spend: SpendSplit }[]): RunSpend {
  const sut = sumSpend(fixtures.map((fixture) => fixture.spend.sut));
  const judges = sumSpend(fixtures.map((fixture) => fixture.spend.judges));
  return { sut, judges, total: addSpend(addSpend({ ...NO_SPEND }, sut), judges) };
}
