import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, statfs, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { userInfo } from 'node:os';
import { onPath } from '../helpers/system-programs.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { BACKENDS } from '../helpers/test-db.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { mulberry32 } from '../../src/util/seeded-random.js';
import { collectGarbage } from '../../src/scratch/gc.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';

// A real full disk: the project's runs/ folder is a 512 KiB tmpfs (this machine and .ci/run run as root, which may
// mount), filled to a random level, so that the run meets ENOSPC where the kernel puts it (a rep file, order.jsonl,
// the manifest, marks.csv) rather than where a test would choose to inject it.
// Replay a failure with TURNKIT_FAULT_SEED=<the seed in its message>.
// Mounting needs root: elsewhere the case is said to be passed over, not silently dropped. The CLI runs in this
// process (the same exit code and lines as the binary): a full disk is the file system's doing, not a process's.
// Mounting its small tmpfs needs root and util-linux's mount (as in .ci/run).
const canMount = userInfo().uid === 0 && onPath('mount') && onPath('umount');
if (!canMount)
  console.warn(
    'full-disk fault test skipped: mounting its small tmpfs needs root and mount (apt-get install -y mount)',
  );
const SEED = Number(process.env.TURNKIT_FAULT_SEED ?? Date.now() % 2 ** 31);
const REPS = 5;

/** Every file under a folder, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

describe.each(BACKENDS)(`a full disk under the run directory (seed ${SEED}), on %s`, (backend) => {
  let p: FaultProject;
  let runs: string;
  beforeAll(async () => {
    if (!canMount) return;
    p = await faultProject(backend);
    runs = join(p.t.dir, 'runs');
    await mkdir(runs);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k,mode=0700', 'tmpfs', runs]);
  });
  afterAll(async () => {
    if (runs) execFileSync('umount', [runs]);
    await p?.t.cleanup();
  });

  it.runIf(canMount)(
    'fails with one line naming the file, leaves every file whole or absent and the database as it was; resumes once there is room',
    async () => {
      const say = (what: string): string => `seed ${SEED} (TURNKIT_FAULT_SEED=${SEED} to replay): ${what}`;
      // Each response is about 24 KB, in the rep's .json and its .md: a rep takes some 50 KB of the disk.
      const question = await p.question(
        'full',
        '#!/bin/sh\ncat > /dev/null\nhead -c 18000 /dev/zero | tr "\\\\0" "a" | fold -w 100\necho\n',
        { reps: REPS },
      );
      const before = await tableChecksums(p.t.db);
      // Room for between none and all but one of the reps: the disk fills at a random point of the run.
      const room = Math.floor(mulberry32(SEED + (backend === 'postgres' ? 1 : 0))() * 50_000 * (REPS - 1));
      const { bavail, bsize } = await statfs(runs);
      const filler = join(runs, 'filler');
      await writeFile(filler, Buffer.alloc(Math.max(0, bavail * bsize - room)));
      const moment = `${room} bytes free at the start`;

      const databaseArgs = p.t.databaseUrl ? ['--database-url', p.t.databaseUrl] : [];
      // As the binary is run: no DATABASE_URL of the environment's.
      const cli = { cwd: p.t.dir, env: { DATABASE_URL: '' } };
      const run = await runInProcess(['run', question, ...databaseArgs], cli);
      expect(run.code, say(`${moment}: ${run.stderr}`)).toBe(1);
      // Besides the progress lines, one line: the file it could not write, and why; no stack trace.
      const said = run.stderr.split('\n').filter((line) => line !== '' && !/^\[\d+\/\d+\] /.test(line));
      expect(said, say(moment)).toEqual([
        expect.stringMatching(
          /^runs\/full\/[^/\s]+(\/(manifest\.json|order\.jsonl|marks\.csv|rubric\.md|case-files\/base\.md|reps\/base\/rep-0\d\.(json|md)))?: no space left on the disk \(ENOSPC\)( \(and \d more failure\(s\) like it\))?$/,
        ),
      ]);

      // The database is as it was (after gc: a rep could have been cut anywhere).
      await collectGarbage(p.t.db);
      expect(await registryCounts(p.t.db), say(moment)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
      expect(await tableChecksums(p.t.db), say(moment)).toEqual(before);

      const made = (await readdir(join(runs, 'full')).catch(() => [] as string[])).filter(
        (name) => !name.startsWith('.'),
      );
      await rm(filler);
      if (made.length === 0) {
        // Full before the run had its manifest, case file and rubric: no half-made run is left; a new one completes.
        const again = await runInProcess(['run', question, ...databaseArgs], cli);
        expect(again.code, say(`${moment}: a new run: ${again.stderr}`)).toBe(0);
        expect(await tableChecksums(p.t.db), say(moment)).toEqual(before);
        return;
      }
      const dir = join(runs, 'full', made[0]!);
      // Made, the run has what its reps are read with.
      for (const name of ['manifest.json', 'case-files/base.md', 'rubric.md'])
        expect(existsSync(join(dir, name)), say(`${moment}: ${name}`)).toBe(true);
      // Whole or absent: no temporary file left, every JSON file parses, every rep's .json has its .md.
      const files = await filesUnder(dir);
      expect(
        files.filter((name) => name.endsWith('.tmp')),
        say(moment),
      ).toEqual([]);
      for (const name of files.filter((file) => file.endsWith('.json')))
        expect(() => JSON.parse(readFileSync(join(dir, name), 'utf8')), say(`${moment}: ${name}`)).not.toThrow();
      const reps = files.filter((name) => /^reps\/base\/rep-\d\d\.(json|md)$/.test(name)).sort();
      const jsons = reps.filter((name) => name.endsWith('.json')).map((name) => name.replace(/\.json$/, ''));
      const mds = reps.filter((name) => name.endsWith('.md')).map((name) => name.replace(/\.md$/, ''));
      expect(mds, say(moment)).toEqual(jsons);
      for (const line of (await readFile(join(dir, 'order.jsonl'), 'utf8').catch(() => '')).split('\n').filter(Boolean))
        expect(() => JSON.parse(line), say(`${moment}: order.jsonl`)).not.toThrow();

      // Room again: --resume completes the run to every rep.
      const resumed = await runInProcess(['run', question, '--resume', `runs/full/${made[0]}`, ...databaseArgs], cli);
      expect(resumed.code, say(`${moment}: resume: ${resumed.stderr}`)).toBe(0);
      expect(resumed.stdout).toContain(`runs/full/${made[0]}: complete`);
      const marks = parseMarks(await readFile(join(dir, 'marks.csv'), 'utf8'));
      expect(
        marks.map((row) => [row.rep, row.mark]),
        say(moment),
      ).toEqual([1, 2, 3, 4, 5].map((rep) => [rep, '']));
      expect(await tableChecksums(p.t.db), say(moment)).toEqual(before);
    },
  );
});
