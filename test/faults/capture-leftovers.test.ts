import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS } from '../helpers/test-db.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { asCommand } from '../helpers/as-command.js';
import { capture } from '../../src/fixture/capture/capture-fixtures.js';
import { TEST_SCRUB_KEY } from '../helpers/scrub-key.js';

/** A pid that is surely gone: a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe.each(BACKENDS)('what a killed capture leaves, on %s', (backend) => {
  let p: FaultProject;
  beforeAll(async () => {
    p = await faultProject(backend);
  });
  afterAll(async () => p?.t.cleanup());

  it('the next capture into the folder removes temporary files whose process is gone, and keeps those of a live one', async () => {
    const out = join(p.t.dir, 'captured');
    await mkdir(out);
    // What `capture --turns 3..6` killed mid-write leaves: a hidden temporary file named after its process.
    const stale = `.${p.campaign}-turn-4.json.${deadPid()}.0a1b2c3d.tmp`;
    const live = spawn('sleep', ['60'], { stdio: 'ignore' });
    const running = `.${p.campaign}-turn-4.json.${live.pid}.0a1b2c3d.tmp`;
    try {
      await writeFile(join(out, stale), '{"half": ');
      await writeFile(join(out, running), '{"being written": ');
      const result = await asCommand(capture, {
        campaign: p.campaign,
        turns: { from: 2, to: 3 },
        out,
        cwd: p.t.dir,
        databaseUrl: p.t.databaseUrl,
        scrubKey: TEST_SCRUB_KEY,
      });
      expect(result.files).toHaveLength(2);
      const names = (await readdir(out)).sort();
      expect(names).not.toContain(stale);
      expect(names).toContain(running);
      expect(names.filter((name) => name.endsWith('.json') && !name.startsWith('.'))).toHaveLength(3);
    } finally {
      live.kill('SIGKILL');
    }
  });
});
