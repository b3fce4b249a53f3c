import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { serializeDocument } from '../fixture/format.js';
import { repMarkdown, type RepRecord } from './rep-record.js';
import { repFileBase, writeRunFile } from './run-layout.js';

/** Writes a rep's record (`reps/FIXTURE/rep-NN.json`) and its Markdown; the .json last, as it makes the rep done. */
export async function writeRep(dir: string, record: RepRecord): Promise<void> {
  const base = repFileBase(record.fixture, record.rep);
  // Written last, so that a full disk never leaves a rep without its .md.
  await writeRunFile(dir, `${base}.md`, repMarkdown(record), { durable: false });
  await writeRunFile(dir, `${base}.json`, serializeDocument(record), { durable: false }).catch(async (error) => {
    await rm(join(dir, `${base}.md`), { force: true });
    throw error;
  });
}
