import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { Db } from '../../src/db/connect.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';

const HELPER = join(import.meta.dirname, 'capture-in-little-memory.ts');

/** How capture-in-little-memory.ts writes the fixture: rows read as they stream, row by row from memory, or whole. */
export type ChildCaptureMode = 'rows' | 'streamed' | 'whole';

/**
 * Captures a campaign in a child process whose heap is capped at `heapMb`, so that a test can show what fits and what
 * runs out of memory. Resolves with the exit code and stderr (never rejects: running out is an outcome).
 */
export function captureInChild(
  url: string,
  campaign: string,
  file: string,
  mode: ChildCaptureMode,
  heapMb: number,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [`--max-old-space-size=${heapMb}`, '--import', 'tsx', HELPER, url, campaign, file, mode],
      { cwd: join(import.meta.dirname, '../..'), maxBuffer: 16 * 1024 * 1024 },
      (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
    );
  });
}

/** The campaigns both capture-memory tests use: a small one of 300 turns and a large one of 1 MB narrations. */
export async function smallAndLargeCampaigns(db: Db, largeTurns: number): Promise<{ small: string; large: string }> {
  await createSampleCampaign(db, { turns: 12, seed: 3 });
  const small = await createSampleCampaign(db, { turns: 300 });
  const large = await createSampleCampaign(db, { turns: largeTurns, seed: 5 });
  await db.pool.query(
    `UPDATE turns SET narration = repeat('The lift hums past deck ' || turn_number || '. ', 40000) WHERE campaign_id = $1`,
    [large],
  );
  return { small, large };
}
