import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdtemp, readdir, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeMarkRun, standardRun } from '../helpers/mark-run.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { startViewServer } from '../../src/view/server/view-server.js';

/** A GET with the viewer's token and Host, as its page makes one. */
function get(port: number, path: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `${path}${path.includes('?') ? '&' : '?'}token=${token}`,
        headers: { Host: `127.0.0.1:${port}` },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const BLANK_MARKS =
  'fixture,rep,mark,note\nalpha,1,,\nalpha,2,error,sut: exit\nalpha,3,,\nbeta,1,,\nbeta,2,,\nbeta,3,,not run\n';

// One rule for every reader of a run directory: a symbolic link that leads out of it is refused, never followed.
describe('symbolic links inside a run directory', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-run-links-'));
    await writeFile(join(folder, 'outside.txt'), 'OUTSIDE-THE-RUN root:x:0:0\n');
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it.each(['rubric.md', 'case-files/alpha.md'])(
    'a %s linked out of the run: report --html refuses it in one line, writes no page; /api/run sends none of it',
    async (name) => {
      const run = await makeMarkRun(standardRun(join(folder, 'runs', 'places', name.replace(/\W/g, '-'))));
      await writeFile(join(run, 'marks.csv'), BLANK_MARKS);
      // A viewer already open on the run when the link appears.
      await using server = await startViewServer({ runs: [run], cwd: folder, strict: true });
      await unlink(join(run, name));
      await symlink(join(folder, 'outside.txt'), join(run, name));
      const relativeRun = run.slice(folder.length + 1);
      const report = await runInProcess(['report', relativeRun, '--html'], { cwd: folder });
      expect(report.code).toBe(1);
      expect(report.stderr).toBe(
        `${relativeRun}/${name}: a symbolic link that leads out of the run directory; refused\n`,
      );
      expect(report.stdout).not.toContain('OUTSIDE-THE-RUN');
      expect((await readdir(run)).filter((file) => file.endsWith('.html'))).toEqual([]);
      const data = await get(server.port, '/api/run?run=0', server.token);
      expect(data.status).not.toBe(200);
      expect(data.body).not.toContain('OUTSIDE-THE-RUN');
      expect(data.body).toContain('a symbolic link that leads out of the run directory');
      // A viewer started on it refuses at once.
      await expect(startViewServer({ runs: [run], cwd: folder, strict: true })).rejects.toThrow(
        `${name}: a symbolic link that leads out of the run directory; refused`,
      );
    },
  );

  it('a link to a file inside the run is read as that file', async () => {
    const run = await makeMarkRun(standardRun(join(folder, 'runs', 'places', 'inside')));
    await writeFile(join(run, 'marks.csv'), BLANK_MARKS);
    await writeFile(join(run, 'rubric-copy.md'), '# Rubric copy: INSIDE-RULE\n');
    await unlink(join(run, 'rubric.md'));
    await symlink(join(run, 'rubric-copy.md'), join(run, 'rubric.md'));
    await using server = await startViewServer({ runs: [run], cwd: folder, strict: true });
    const data = await get(server.port, '/api/run?run=0', server.token);
    expect(data.status).toBe(200);
    expect(data.body).toContain('INSIDE-RULE');
  });
});
