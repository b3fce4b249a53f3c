import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWriter } from '../../src/run-dir/run-writer.js';

// order.jsonl is read back as the order reps started in (resume, the viewer, provenance): its lines must come in
// the order the starts were recorded, even when several reps start at once.
describe("a run writer's order.jsonl", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps the order of starts recorded at once, whatever order their appends finish in', async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-order-'));
    const write = runWriter(dir);
    // The first start's line is long (a long fixture name): written in several chunks, it finishes last unless the
    // appends wait for each other.
    const entries = Array.from({ length: 50 }, (_, i) => ({
      fixture: i === 0 ? 'k'.repeat(4_000_000) : 'copy',
      rep: i + 1,
      attempt: 1,
    }));
    await Promise.all(entries.map((entry) => write.order(entry)));
    const lines = (await readFile(join(dir, 'order.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { rep: number }).rep)).toEqual(entries.map((entry) => entry.rep));
  });

  it('fails the append that could not be written, and still writes the next', async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-order-'));
    const later = join(dir, 'later');
    const write = runWriter(later);
    await expect(write.order({ fixture: 'keep', rep: 1, attempt: 1 })).rejects.toThrow(/order\.jsonl/);
    await mkdir(later);
    await write.order({ fixture: 'keep', rep: 2, attempt: 1 });
    expect(await readFile(join(later, 'order.jsonl'), 'utf8')).toBe('{"fixture":"keep","rep":2,"attempt":1}\n');
  });

  it("cuts a line a killed run left torn before a resume appends, so the resume's first entry is whole", async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-order-'));
    await writeFile(join(dir, 'order.jsonl'), '{"fixture":"a","rep":1,"attempt":1}\n{"fixture":"a","re');
    await runWriter(dir).order({ fixture: 'a', rep: 2, attempt: 1 });
    expect(await readFile(join(dir, 'order.jsonl'), 'utf8')).toBe(
      '{"fixture":"a","rep":1,"attempt":1}\n{"fixture":"a","rep":2,"attempt":1}\n',
    );
  });
});
