// npm run bench:construct — what a constructed fixture costs over a captured one, for fixtures of 50, 500 and
// 5,000 turns (the committed sample fixture with its turns repeated): materializing (read the base, hash it, check
// old values, apply) against reading the base alone, and recording a diff (construct) from an edited copy that shares
// unchanged rows (the editor) and from a parsed edited file (--from), against parsing that file. Same run, same files.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadFixture } from '../src/fixture/load-fixture.js';
import { diff } from 'json-diff-ts';
import { diffFixtures } from '../src/fixture/constructed/diff-fixtures.js';
import { saveConstructed } from '../src/fixture/constructed/save-constructed.js';
import { serializeDocument, type Fixture } from '../src/fixture/format.js';
import { parseFixtureText, readFixture } from '../src/fixture/read-fixture.js';

const SIZES = [50, 500, 5000];
const REPEATS = Number(process.env.BENCH_REPEATS ?? 9);
const SAMPLE = fileURLToPath(new URL('../fixtures/meridian-turn-23.json', import.meta.url));

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

async function timed(fn: () => unknown): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** The sample fixture with `turns` turn rows (keys and turn numbers 1..turns, text from the 22 sample turns). */
function scaled(sample: Fixture, turns: number): Fixture {
  const source = sample.tables.turns!;
  const rows = Array.from({ length: turns }, (_, i) => ({
    ...source.rows[i % source.rows.length]!,
    id: String(i + 1),
    turn_number: i + 1,
  }));
  // world_facts keep pointing at turns 9 and 18, which exist at every size.
  return {
    ...sample,
    name: `scaled-${turns}`,
    source: { ...sample.source, turn: turns + 1, latestTurn: turns + 1 },
    input: { ...sample.input, turn: turns + 1 },
    tables: { ...sample.tables, turns: { ...source, rows } },
  };
}

const dir = await mkdtemp(join(tmpdir(), 'turnkit-bench-construct-'));
try {
  const sample = parseFixtureText(await readFile(SAMPLE, 'utf8'), SAMPLE);
  console.log(`construct benchmark: median of ${REPEATS} runs each, ms`);
  console.log(
    'turns   bytes   read base  materialize  ratio   parse edited  diff (--from)  ratio   diff (editor)  json-diff-ts   ratio',
  );
  for (const size of SIZES) {
    const base = scaled(sample, size);
    const basePath = join(dir, `scaled-${size}.json`);
    await writeFile(basePath, serializeDocument(base));
    const loaded = await loadFixture(basePath);
    const rows = base.tables.turns!.rows.map((row) =>
      row.id === '19' ? { ...row, narration: `${String(row.narration)} (corrected)` } : row,
    );
    const edited: Fixture = { ...base, tables: { ...base.tables, turns: { ...base.tables.turns!, rows } } };
    const saved = await saveConstructed({
      base: loaded,
      edited,
      turn: 19,
      name: `fixed-${size}`,
      why: 'bench',
      dir,
      force: true,
    });
    const editedPath = join(dir, `edited-${size}.json`);
    const editedText = serializeDocument(edited);
    await writeFile(editedPath, editedText);
    const read: number[] = [];
    const materialize: number[] = [];
    const parse: number[] = [];
    const diffFrom: number[] = [];
    const diffEditor: number[] = [];
    const generic: number[] = [];
    // What turnkit's diff replaced: json-diff-ts on the whole fixtures, rows keyed by primary key.
    const embeddedObjKeys = Object.fromEntries(
      Object.entries(base.tables)
        .filter(([, table]) => table.primaryKey.length === 1)
        .map(([name, table]) => [`tables.${name}.rows`, table.primaryKey[0]!]),
    );
    for (let rep = 0; rep < REPEATS + 1; rep++) {
      const samples = [
        await timed(() => readFixture(basePath)),
        await timed(() => loadFixture(saved.file)),
        await timed(() => parseFixtureText(editedText, editedPath)),
        await timed(() => diffFixtures(base, parseFixtureText(editedText, editedPath))),
        await timed(() => diffFixtures(base, edited)),
        await timed(() => diff(base, edited, { embeddedObjKeys })),
      ];
      // The first round warms the JIT and the file cache.
      if (rep === 0) continue;
      [read, materialize, parse, diffFrom, diffEditor, generic].forEach((list, i) => list.push(samples[i]!));
    }
    const bytes = (await readFile(basePath)).length;
    const line = [
      String(size).padStart(5),
      String(bytes).padStart(8),
      median(read).toFixed(1).padStart(10),
      median(materialize).toFixed(1).padStart(12),
      `${(median(materialize) / median(read)).toFixed(2)}x`.padStart(6),
      median(parse).toFixed(1).padStart(14),
      median(diffFrom).toFixed(1).padStart(14),
      `${(median(diffFrom) / median(parse)).toFixed(2)}x`.padStart(6),
      median(diffEditor).toFixed(1).padStart(15),
      median(generic).toFixed(1).padStart(13),
      `${(median(diffEditor) / median(generic)).toFixed(3)}x`.padStart(7),
    ];
    console.log(line.join(' '));
  }
  console.log(
    'read base = read and check a captured fixture; materialize = the constructed one (base read, hashed, checked, applied);',
  );
  console.log(
    'diff (--from) includes parsing the edited file; diff (editor) works on a copy that shares unchanged rows;',
  );
  console.log(
    "json-diff-ts = its diff() on the same two fixtures, rows keyed by primary key (the baseline turnkit's own diff replaced)",
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
