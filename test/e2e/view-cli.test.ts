import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { makeMarkRun, standardRun } from '../helpers/mark-run.js';

describe('turnkit view through the binary', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-view-cli-'));
    const run = await makeMarkRun(standardRun(join(folder, 'runs', 'places', '2026-01-01T00-00-00.000Z')));
    await writeFile(
      join(run, 'marks.csv'),
      'fixture,rep,mark,note\nalpha,1,,\nalpha,2,error,sut: exit\nalpha,3,,\nbeta,1,,\nbeta,2,,\nbeta,3,,not run\n',
    );
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('prints a 127.0.0.1 URL with its token, serves the page with it and refuses without it, and stops on Ctrl-C letting go of the marks file', async () => {
    const child = spawn(process.execPath, [BIN, 'view', 'runs/places/2026-01-01T00-00-00.000Z'], {
      cwd: folder,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // The URL on stdout, the note on stderr: both streams are read until each has said its line.
    const url = await new Promise<string>((resolve, reject) => {
      const check = (): void => {
        const found = /^turnkit view: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)$/m.exec(stdout);
        if (found && stderr.includes('Ctrl-C stops')) resolve(found[1]!);
      };
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        check();
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        check();
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      expect(stderr).toMatch(
        /^serving 1 run\(s\) on 127\.0\.0\.1 only; open the URL above \(its token is the key\); Ctrl-C stops$/m,
      );
      expect((await fetch(url)).status).toBe(200);
      expect((await fetch(url.replace(/\?token=.*$/, ''))).status).toBe(403);
      expect(existsSync(join(folder, 'runs/places/2026-01-01T00-00-00.000Z/marks.csv.lock'))).toBe(true);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(existsSync(join(folder, 'runs/places/2026-01-01T00-00-00.000Z/marks.csv.lock'))).toBe(false);
  });

  it('a --port another program listens on is one line, exit 1', async () => {
    const other: Server = createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', () => resolve()));
    const port = (other.address() as { port: number }).port;
    try {
      const result = await runInProcess(['view', 'runs/places/2026-01-01T00-00-00.000Z', '--port', String(port)], {
        cwd: folder,
      });
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `--port ${port}: in use by another program; choose another, or leave --port out for a free one\n`,
      });
      // The marks file it took is let go again.
      expect(existsSync(join(folder, 'runs/places/2026-01-01T00-00-00.000Z/marks.csv.lock'))).toBe(false);
    } finally {
      other.close();
    }
  });

  it('without a run named and no runs/ folder, says so in one line', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'turnkit-view-empty-'));
    try {
      const result = await runInProcess(['view'], { cwd: empty });
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: 'runs: no run directories (turnkit run QUESTION makes one), or name one: turnkit view RUN_DIR\n',
      });
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
