import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256 } from '../util/sha256.js';
import { judgeLines } from '../run-dir/judge-lines.js';
import { JUDGE_CACHE_FILE } from '../run-dir/run-file-names.js';
import { runWriter, type RunWriter } from '../run-dir/run-writer.js';

/** What makes two judge requests the same request (the rubric, case file and response by their hashes). */
export interface JudgeCacheKey {
  provider: string;
  model: string;
  /** The same model name on another server is another model. */
  baseUrl: string;
  temperature: number;
  maxTokens: number;
  rubricSha256: string;
  caseFileSha256: string;
  responseSha256: string;
  /** A state-grounded judge's: the state it was shown (absent for a judge shown text only, whose keys stay as they were). */
  stateSha256?: string;
}

/**
 * Judge answers already paid for, by model, rubric, case file and response: a rerun, or a re-judge of the same
 * run after an interruption, does not call the model again. Only answers that parsed to a verdict are kept, so an
 * unreadable answer is asked again. Lines are appended as answers arrive; a line torn by a crash is skipped.
 */
export class JudgeCache {
  private constructor(
    private readonly write: RunWriter,
    private readonly answers: Map<string, string>,
    private readonly spends: Map<string, unknown>,
  ) {}

  /** Opens the cache of a run directory. */
  static async open(dir: string): Promise<JudgeCache> {
    const file = join(dir, JUDGE_CACHE_FILE);
    const answers = new Map<string, string>();
    const spends = new Map<string, unknown>();
    if (existsSync(file)) {
      for (const { entry } of judgeLines(await readFile(file, 'utf8'))) {
        if (typeof entry?.key === 'string' && typeof entry.answer === 'string') {
          answers.set(entry.key, entry.answer);
          if (entry.spend !== undefined) spends.set(entry.key, entry.spend);
        }
      }
    }
    return new JudgeCache(runWriter(dir), answers, spends);
  }

  /** The cache key of a request. */
  static keyOf(key: JudgeCacheKey): string {
    return sha256(
      JSON.stringify([
        key.provider,
        key.model,
        key.baseUrl,
        key.temperature,
        key.maxTokens,
        key.rubricSha256,
        key.caseFileSha256,
        key.responseSha256,
        ...(key.stateSha256 !== undefined ? [key.stateSha256] : []),
      ]),
    );
  }

  /** The answer kept for a request, if any. */
  get(key: string): string | undefined {
    return this.answers.get(key);
  }

  /** What the answer kept for a request cost when it was received (as kept with it; unchecked). */
  spendOf(key: string): unknown {
    return this.spends.get(key);
  }

  /** Keeps an answer (appended to the file at once). */
  async put(key: string, answer: string, about: Record<string, unknown>): Promise<void> {
    this.answers.set(key, answer);
    if (about.spend !== undefined) this.spends.set(key, about.spend);
    // Whole lines only: a full disk mid-line leaves the file as it was and names it (judge stops, nothing else lost).
    await this.write.append(
      JUDGE_CACHE_FILE,
      `${JSON.stringify({ key, ...about, answer, at: new Date().toISOString() })}\n`,
    );
  }
}
