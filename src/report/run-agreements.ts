import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Run } from '../run-dir/read-run.js';
import { agreement } from '../stats/agreement.js';

/** One marks file of a run measured against the human's marks. */
export interface RunAgreement {
  /** The marks file (a judge's, the checks', another grader's, or a blind re-mark). */
  file: string;
  /** The file it is measured against: marks.csv, or marks.NAME.csv for that grader's blind re-mark. */
  against: string;
  /** A blind re-mark against its own grader's marks: the self-agreement, the ceiling any judge can reach. */
  self: boolean;
  matched: number;
  agreed: number;
  kappa: number | null;
}

/**
 * Every marks file in a run directory against the human's marks.csv, and each blind re-mark against the marks it
 * re-marks, so that a judge's agreement is read beside the human's agreement with themself. A file that does not
 * read as marks of this run is left out with a warning rather than stopping the report; so is every file while the
 * one it is measured against has no pass or fail yet.
 */
export async function runAgreements(run: Run): Promise<{ agreements: RunAgreement[]; warnings: string[] }> {
  const { dir } = run;
  const names = (await run.marksFileNames()).filter((name) => name !== 'marks.csv');
  const warnings: string[] = [];
  const agreements: RunAgreement[] = [];
  const read = async (name: string) => {
    try {
      return await run.marks(name);
    } catch (error) {
      warnings.push(`${name} is left out of the agreements: ${(error as Error).message}`);
      return undefined;
    }
  };
  const cache = new Map<string, Awaited<ReturnType<typeof read>>>();
  const marksOf = async (name: string) => {
    if (!cache.has(name)) cache.set(name, await read(name));
    return cache.get(name);
  };
  for (const name of names) {
    const blind = /^(marks(?:\.[\w.-]+?)?)\.blind\.csv$/.exec(name);
    const against = blind ? `${blind[1]}.csv` : 'marks.csv';
    if (!existsSync(join(dir, against))) continue;
    const a = await marksOf(against);
    const b = await marksOf(name);
    if (!a || !b) continue;
    // Until a person has marked a rep pass or fail there is nothing to agree with: the file is left out. After
    // that a file with nothing in common (a judge whose every verdict is error, say) is listed, not dropped.
    if (![...a.values()].some((row) => row.mark === 'pass' || row.mark === 'fail')) continue;
    const result = agreement(a, b);
    agreements.push({
      file: name,
      against,
      self: blind !== null,
      matched: result.matched,
      agreed: result.agreed,
      kappa: result.kappa,
    });
  }
  return { agreements, warnings };
}
