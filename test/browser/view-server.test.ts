import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeMarkRun, standardRun } from '../helpers/mark-run.js';
import { startViewServer, type ViewServer } from '../../src/view/server/view-server.js';
import { lockFileOf } from '../../src/marking/marks-lock.js';
import { makeRolloutRun } from '../helpers/rollout-run.js';

/** A raw request (fetch would tidy a path's "..", and would not let the Host or Origin be chosen). */
function raw(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const BLANK_MARKS =
  'fixture,rep,mark,note\nalpha,1,,\nalpha,2,error,sut: exit\nalpha,3,,\nbeta,1,,\nbeta,2,,\nbeta,3,,not run\n';

describe('turnkit view: the server lets in only its own page, with the token', () => {
  let folder: string;
  let run: string;
  let server: ViewServer;
  let csrf: string;
  const post = (body: unknown, headers: Record<string, string> = {}, path = '/api/mark') =>
    raw(server.port, path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: {
        Host: `127.0.0.1:${server.port}`,
        Origin: `http://127.0.0.1:${server.port}`,
        'Sec-Fetch-Site': 'same-origin',
        'Content-Type': 'application/json',
        'X-Turnkit-Token': server.token,
        'X-Turnkit-Csrf': csrf,
        ...headers,
      },
    });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-view-server-'));
    run = await makeMarkRun(standardRun(join(folder, 'run')));
    await writeFile(join(run, 'marks.csv'), BLANK_MARKS);
    await writeFile(join(folder, 'secret.txt'), 'OUTSIDE-THE-RUN\n');
    await symlink(join(folder, 'secret.txt'), join(run, 'link-out.txt'));
    server = await startViewServer({ runs: [run], cwd: folder, strict: true });
    const page = await raw(server.port, `/?token=${server.token}`, { headers: { Host: `127.0.0.1:${server.port}` } });
    csrf = JSON.parse(/<script type="application\/json" id="turnkit-data">([^<]*)<\/script>/.exec(page.body)![1]!).csrf;
  });
  afterAll(async () => {
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 and prints a URL with a long random token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
  });

  it('refuses a request without the token, with a wrong one, or naming another host (403)', async () => {
    const host = { Host: `127.0.0.1:${server.port}` };
    expect((await raw(server.port, '/', { headers: host })).status).toBe(403);
    expect((await raw(server.port, '/api/run?run=0', { headers: host })).status).toBe(403);
    expect((await raw(server.port, `/?token=${server.token.slice(0, -1)}x`, { headers: host })).status).toBe(403);
    expect(
      (await raw(server.port, `/?token=${server.token}`, { headers: { Host: `evil.example:${server.port}` } })).status,
    ).toBe(403);
    const page = await raw(server.port, `/?token=${server.token}`, { headers: host });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<!doctype html>');
  });

  it('serves the files of its run only: a path out of it ("..", encoded or not, a symbolic link out) is refused', async () => {
    const host = { Host: `127.0.0.1:${server.port}` };
    const get = (path: string) =>
      raw(server.port, `${path}${path.includes('?') ? '&' : '?'}token=${server.token}`, { headers: host });
    const manifest = await get('/files/0/manifest.json');
    expect(manifest.status).toBe(200);
    expect(JSON.parse(manifest.body).format).toBe('turnkit.run/1');
    for (const path of [
      '/files/0/../secret.txt',
      '/files/0/%2e%2e%2fsecret.txt',
      '/files/0/..%2f..%2f..%2f..%2fetc%2fpasswd',
      `/files/0/${encodeURIComponent(join(folder, 'secret.txt'))}`,
      '/files/0/link-out.txt',
      '/files/0/%E0%A4%A',
      '/files/1/manifest.json',
    ]) {
      const result = await get(path);
      expect([403, 404], path).toContain(result.status);
      expect(result.body).not.toContain('OUTSIDE-THE-RUN');
      expect(result.body).not.toContain('root:');
    }
  });

  it("takes a mark only as a same-origin POST with the token and the page's CSRF header, as JSON", async () => {
    const mark = { run: 0, position: 0, mark: 'pass' };
    expect((await post(mark, { 'X-Turnkit-Token': 'nope' })).status).toBe(403);
    expect((await post(mark, { 'X-Turnkit-Csrf': 'nope' })).status).toBe(403);
    expect((await post(mark, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(mark, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await post(mark, { 'Content-Type': 'text/plain' })).status).toBe(403);
    expect(await readFile(join(run, 'marks.csv'), 'utf8')).toBe(BLANK_MARKS);
    // A state change by GET does not exist.
    expect(
      (await raw(server.port, `/api/mark?token=${server.token}`, { headers: { Host: `127.0.0.1:${server.port}` } }))
        .status,
    ).toBe(404);
    const done = await post(mark);
    expect(done.status, done.body).toBe(200);
    // The mark as saved and the progress line's counts (4 reps to mark): not every position's marks.
    expect(JSON.parse(done.body)).toEqual({
      ok: true,
      position: 0,
      mark: ['pass', ''],
      turnMarks: [],
      progress: { marked: 1, total: 4 },
      merged: false,
    });
    expect(await readFile(join(run, 'marks.csv'), 'utf8')).toMatch(/^alpha,1,pass,,\w+,\d{4}-\d\d-\d\dT[\d:.]+Z,v3$/m);
    // An errored rep keeps its mark, as in the terminal marker; a position past the end is no rep.
    expect((await post({ run: 0, position: 2, mark: 'pass' })).status).toBe(400);
    expect((await post({ run: 0, position: 99, mark: 'pass' })).status).toBe(400);
    expect((await post({ run: 0, position: 0, mark: 'error' })).status).toBe(400);
  });

  it("takes a turn's mark through the same guard, and only for a rollout rep", async () => {
    const turnMark = { run: 0, position: 0, turn: 23, mark: 'fail' };
    expect((await post(turnMark, { 'X-Turnkit-Csrf': 'nope' }, '/api/turn-mark')).status).toBe(403);
    expect((await post(turnMark, { Origin: 'http://evil.example' }, '/api/turn-mark')).status).toBe(403);
    const refused = await post(turnMark, {}, '/api/turn-mark');
    expect([refused.status, JSON.parse(refused.body).error]).toEqual([400, 'the rep at 0 is not a rollout']);
    expect((await post({ ...turnMark, mark: 'error' }, {}, '/api/turn-mark')).status).toBe(400);
    expect(await readFile(join(run, 'marks.csv'), 'utf8')).not.toContain('turn_marks');
  });

  it("gives a rollout rep's played turn a mark of its own, and refuses a turn it did not play", async () => {
    const dir = await makeRolloutRun(join(folder, 'rollout'), 3, [
      {
        name: 'alpha',
        reps: [
          { turns: [{}, {}], stopped: 'fail' },
          { turns: [{}, { error: { cause: 'exit', message: 'x' } }], stopped: 'error' },
        ],
      },
    ]);
    await writeFile(join(dir, 'marks.csv'), 'fixture,rep,mark,note\nalpha,1,,\nalpha,2,error,sut: exit\n');
    await using rollout = await startViewServer({ runs: [dir], cwd: folder, strict: true });
    const page = await raw(rollout.port, `/?token=${rollout.token}`, {
      headers: { Host: `127.0.0.1:${rollout.port}` },
    });
    const token = JSON.parse(/id="turnkit-data">([^<]*)<\/script>/.exec(page.body)![1]!).csrf;
    const give = (body: unknown) =>
      raw(rollout.port, '/api/turn-mark', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: {
          Host: `127.0.0.1:${rollout.port}`,
          Origin: `http://127.0.0.1:${rollout.port}`,
          'Content-Type': 'application/json',
          'X-Turnkit-Token': rollout.token,
          'X-Turnkit-Csrf': token,
        },
      });
    const unplayed = await give({ run: 0, position: 0, turn: 25, mark: 'fail' });
    expect([unplayed.status, JSON.parse(unplayed.body).error]).toEqual([400, 'turn 25 was not played in the rep at 0']);
    // The errored rep keeps its mark, turns and all, as in the terminal marker.
    expect((await give({ run: 0, position: 1, turn: 23, mark: 'pass' })).status).toBe(400);
    const done = await give({ run: 0, position: 0, turn: 24, mark: 'fail' });
    expect(done.status, done.body).toBe(200);
    expect(JSON.parse(done.body)).toMatchObject({ position: 0, turnMarks: [[24, 'fail']], merged: false });
    expect(JSON.parse(done.body)).not.toHaveProperty('all');
    expect(await readFile(join(dir, 'marks.csv'), 'utf8')).toMatch(/^alpha,1,,,\w+,[^,]+,1,24:fail$/m);
    const cleared = await give({ run: 0, position: 0, turn: 24, mark: '' });
    expect(JSON.parse(cleared.body)).toMatchObject({ position: 0, turnMarks: [] });
    expect(await readFile(join(dir, 'marks.csv'), 'utf8')).not.toContain('turn_marks');
  });

  it('holds the marks file: a second viewer (or turnkit mark) on it is refused until the first lets go', async () => {
    expect(existsSync(lockFileOf(join(run, 'marks.csv')))).toBe(true);
    const second = await startViewServer({ runs: [run], cwd: folder, strict: true }).catch((error: Error) => error);
    expect(second).toBeInstanceOf(Error);
    expect((second as Error).message).toMatch(
      /marks\.csv: being marked by turnkit view \(pid \d+ on [^,]+, since [^)]+\); close it first/,
    );
    // Another grader's file is another file: that viewer may start.
    await using other = await startViewServer({ runs: [run], cwd: folder, strict: true, grader: 'ana' });
    expect(other.port).not.toBe(server.port);
  });

  it('merges a change made to the marks file behind its back (a spreadsheet) instead of overwriting it', async () => {
    const text = await readFile(join(run, 'marks.csv'), 'utf8');
    // The file has the provenance columns since the first mark.
    expect(text).toMatch(/^beta,2,,,,,$/m);
    await writeFile(join(run, 'marks.csv'), text.replace(/^beta,2,,,,,$/m, 'beta,2,fail,by hand,,,'));
    const done = await post({ run: 0, position: 1, mark: 'na', note: 'browser' });
    expect(done.status, done.body).toBe(200);
    // Merged, any position may have changed: every position's marks come with it (positions 1 and 3: beta 1 and 2).
    const reply = JSON.parse(done.body);
    expect(reply).toMatchObject({ merged: true, position: 1, mark: ['na', 'browser'] });
    expect(reply.all.marks[1]).toEqual(['na', 'browser']);
    expect(reply.all.marks[3]).toEqual(['fail', 'by hand']);
    expect(reply.all.turnMarks).toHaveLength(reply.all.marks.length);
    const after = await readFile(join(run, 'marks.csv'), 'utf8');
    expect(after).toMatch(/^beta,2,fail,by hand,/m);
    expect(after).toMatch(/^beta,1,na,browser,/m);
    expect(after).toMatch(/^alpha,1,pass,,/m);
    const history = (await readFile(join(run, 'marks.history.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(history.map((entry) => [entry.fixture, entry.rep, entry.to.mark])).toEqual([
      ['alpha', 1, 'pass'],
      ['beta', 1, 'na'],
    ]);
  });

  it('lets go of the marks file when it closes', async () => {
    const lock = lockFileOf(join(run, 'marks.csv'));
    const again = await startViewServer({ runs: [join(folder, 'run')], cwd: folder });
    await again.close();
    expect(existsSync(lock)).toBe(true);
    await server.close();
    expect(existsSync(lock)).toBe(false);
  });
});
