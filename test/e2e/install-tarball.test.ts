import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { openDb } from '../../src/db/connect.js';
import { migrate, SAMPLE_MIGRATIONS_DIR } from '../../src/db/migrate.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { adminQuery, BACKENDS } from '../helpers/test-db.js';
import { createHash, randomBytes } from 'node:crypto';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** What a command printed and how it exited, whatever the exit code. */
async function sh(
  file: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, args, {
      cwd,
      env: { ...process.env, DATABASE_URL: '', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}

// turnkit as a game project gets it: packed (`npm pack`), installed from the tarball into a project of its own,
// whose game is the sample game's schema under other table names.
// One install serves both backends: each runs in a folder of the game project (no package.json of its own, so
// npx and module resolution find the project's node_modules above it).
describe('turnkit installed from its packed tarball into an existing game project', () => {
  let packDir: string;
  let game: string;
  let tarball: string;

  beforeAll(async () => {
    packDir = await mkdtemp(join(tmpdir(), 'turnkit-pack-'));
    const packed = await sh('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', packDir], REPO);
    expect(packed.code, packed.stderr).toBe(0);
    tarball = join(packDir, (await readdir(packDir)).find((name) => name.endsWith('.tgz'))!);
    game = join(packDir, 'my-game');
    await mkdir(game);
    await writeFile(
      join(game, 'package.json'),
      JSON.stringify({ name: 'my-game', private: true, type: 'module' }, null, 2),
    );
    const installed = await sh(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', tarball],
      game,
    );
    expect(installed.code, installed.stderr).toBe(0);
  }, 600_000);
  afterAll(async () => {
    if (packDir) await rm(packDir, { recursive: true, force: true });
  });

  describe.each(BACKENDS)('on %s', (backend) => {
    let project: string;
    let env: NodeJS.ProcessEnv = {};
    let campaign: string;
    let dropDatabase = async (): Promise<void> => {};
    const turnkit = (...args: string[]) => sh(join(game, 'node_modules/.bin/turnkit'), args, project, env);

    beforeAll(async () => {
      project = join(game, backend);
      await mkdir(project);
      let databaseUrl: string | undefined;
      if (backend === 'postgres') {
        const name = `turnkit_tarball_${randomBytes(6).toString('hex')}`;
        await adminQuery(process.env.TEST_DATABASE_URL!, `CREATE DATABASE ${name}`);
        const url = new URL(process.env.TEST_DATABASE_URL!);
        url.pathname = `/${name}`;
        databaseUrl = url.toString();
        env = { DATABASE_URL: databaseUrl };
        dropDatabase = async () => {
          await adminQuery(process.env.TEST_DATABASE_URL!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        };
      }
      // The game: the sample schema with a campaign in it, its two main tables renamed as another game names them.
      const config = {
        ...configSchema.parse({ ...sampleGameConfig, database: { url: databaseUrl } }),
        baseDir: project,
        file: undefined,
      };
      const db = await openDb(config, { fromEnvironment: false });
      try {
        await migrate(db, SAMPLE_MIGRATIONS_DIR);
        campaign = await createSampleCampaign(db, { turns: 12 });
        await db.pool.query('ALTER TABLE campaigns RENAME TO adventures; ALTER TABLE turns RENAME TO moves');
      } finally {
        await db.close();
      }
    }, 600_000);
    afterAll(async () => {
      await dropDatabase();
    });

    it('has the binary, the types and turnkit/testing where a project looks for them', async () => {
      const version = await turnkit('--version');
      expect(version.stdout.trim()).toBe(JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')).version);
      const imported = await sh(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          "const a = await import('turnkit'); const b = await import('turnkit/testing'); console.log(typeof a.openProject, typeof b.turnkitFixtures, typeof b.withScratchCampaign)",
        ],
        project,
      );
      expect(imported.stdout.trim(), imported.stderr).toBe('function function function');
      const types = await readFile(join(game, 'node_modules/turnkit/dist/src/testing/index.d.ts'), 'utf8');
      expect(types).toContain('turnkitFixtures');
    });

    it('init reads the game from the database; verify, capture, run, judge --checks and report then work', async () => {
      const init = await sh('npx', ['turnkit', 'init', '--yes'], project, env);
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).toContain(
        'game: campaigns in adventures (key id), turns in moves ordered by turn_number, input player_input',
      );
      const config = await readFile(join(project, 'turnkit.config.ts'), 'utf8');
      expect(config).toContain("root: { table: 'adventures', key: 'id' },");
      expect(config).toContain("table: 'moves',");
      expect(await readFile(join(project, 'questions/starter-case-file.md'), 'utf8')).toMatch(/\{\{table:[a-z_]+/);

      const verified = await turnkit('verify');
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout).toContain('ok questions/starter.yaml ("fixtures/*.json" matches no file yet)');

      const captured = await turnkit('capture', '--campaign', campaign, '--turn', '10', '--name', 'move-10');
      expect(captured.code, captured.stderr).toBe(0);
      const ran = await turnkit('run', 'questions/starter.yaml', '--reps', '2', '--json');
      expect(ran.code, ran.stderr).toBe(0);
      const runDir = (JSON.parse(ran.stdout) as { dir: string }).dir;
      const judged = await turnkit('judge', runDir, '--checks');
      expect(judged.code, judged.stderr).toBe(0);
      const report = await turnkit('report', runDir, '--marks', 'marks.checks.csv', '--json');
      expect(report.code, report.stderr).toBe(0);
      const fixture = (
        JSON.parse(report.stdout) as {
          report: { fixtures: { fixture: string; pass: number; fail: number; error: number }[] };
        }
      ).report.fixtures[0]!;
      expect(fixture).toMatchObject({ fixture: 'move-10', pass: 2, fail: 0, error: 0 });
      // The HTML page embeds the page script the package ships (bundled at build time), allowed by its hash.
      const html = await turnkit('report', runDir, '--marks', 'marks.checks.csv', '--html');
      expect(html.code, html.stderr).toBe(0);
      const page = await readFile(join(project, runDir, 'report.html'), 'utf8');
      const script = await readFile(join(game, 'node_modules/turnkit/dist/client/page-script.js'), 'utf8');
      expect(page).toContain(`<script>${script}</script>`);
      expect(page).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
      // The SUT stub read its campaign through DATABASE_URL: 9 turns kept before turn 10.
      const rep = JSON.parse(await readFile(join(project, runDir, 'reps/move-10/rep-01.json'), 'utf8')) as {
        response: string;
      };
      expect(rep.response).toMatch(/^Turn 10, after 9 turns: you said ".+"\. The story goes on\.$/);
    });

    // A user's own TypeScript file outside the repository, with turnkit from the tarball: open a project on a URL
    // (the embedded database without one), capture, seed, run a question object with a function SUT, read the
    // report. Spawned with no environment variable at all, and checked to leave no signal handler behind.
    it('works as a library from a TypeScript file: no environment, no signal handler left', async () => {
      await writeFile(join(project, 'library.ts'), LIBRARY_SCRIPT);
      const databaseUrl = env.DATABASE_URL ?? '';
      // Type-checked against the installed package's declarations, as the user's editor would.
      const checked = await sh(
        process.execPath,
        [
          join(REPO, 'node_modules/typescript/bin/tsc'),
          ...['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--target', 'es2022'],
          ...['--lib', 'es2022,esnext.disposable', '--types', 'node', '--typeRoots', join(REPO, 'node_modules/@types')],
          'library.ts',
        ],
        project,
      );
      expect(checked.code, checked.stdout + checked.stderr).toBe(0);
      const ran = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        execFile(
          process.execPath,
          [join(REPO, 'node_modules/tsx/dist/cli.mjs'), 'library.ts', databaseUrl, campaign],
          { cwd: project, env: {}, maxBuffer: 16 * 1024 * 1024 },
          (error, stdout, stderr) =>
            done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
      expect(ran.code, ran.stderr).toBe(0);
      const out = JSON.parse(ran.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
      expect(out).toMatchObject({
        captured: ['lib-11.json'],
        seededTurnsBefore: 10,
        registryAfterTeardown: 0,
        status: 'complete',
        outcome: null,
        fixtures: [{ fixture: 'lib-11', blank: 2, error: 0 }],
        responses: ['lib-11 rep 1: 10 turns before', 'lib-11 rep 2: 10 turns before'],
        listeners: { before: [0, 0], after: [0, 0] },
      });
    });
  });

  // npm's nested strategy hoists nothing: turnkit's own pg is not where the project's stub looks. init says what to
  // install; until then the run says why the stub failed; after it, the stub runs (the embedded database).
  it('init names the package the SUT stub needs, which makes it run in a project installed with --install-strategy=nested', async () => {
    const nested = join(packDir, 'nested-game');
    await mkdir(nested);
    await writeFile(
      join(nested, 'package.json'),
      JSON.stringify({ name: 'nested-game', private: true, type: 'module' }),
    );
    const npm = (...args: string[]) =>
      sh(
        'npm',
        ['install', '--no-audit', '--no-fund', '--prefer-offline', '--install-strategy=nested', ...args],
        nested,
      );
    const installed = await npm('--save-dev', tarball);
    expect(installed.code, installed.stderr).toBe(0);
    const turnkit = (...args: string[]) => sh(join(nested, 'node_modules/.bin/turnkit'), args, nested);
    expect(await turnkit('sample', '--turns', '12')).toMatchObject({ code: 0, stdout: '1\n' });
    const init = await turnkit('init', '--yes');
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(
      'the SUT stub sut/game-master.mjs needs the pg package, which package.json does not list: npm install --save-dev pg\n',
    );
    expect((await turnkit('capture', '--campaign', '1', '--turn', '10', '--name', 'turn-10')).code).toBe(0);
    const failed = await turnkit('run', 'questions/starter.yaml', '--reps', '1');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      "(first: turn-10 rep 1: sut: exit: exited with 1: Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'pg' imported from",
    );
    // As init says (npm install --save-dev pg, here with the same strategy).
    const pg = await npm('--save-dev', 'pg');
    expect(pg.code, pg.stderr).toBe(0);
    const again = await turnkit('init', '--yes', '--force');
    expect(again.stdout).not.toContain('needs the pg package');
    const ran = await turnkit('run', 'questions/starter.yaml', '--reps', '1', '--json');
    expect(ran.code, ran.stderr).toBe(0);
    const runDir = (JSON.parse(ran.stdout) as { dir: string }).dir;
    const rep = JSON.parse(await readFile(join(nested, runDir, 'reps/turn-10/rep-01.json'), 'utf8')) as {
      response: string;
    };
    expect(rep.response).toMatch(/^Turn 10, after 9 turns: you said ".+"\. The story goes on\.$/);
  }, 600_000);
});

// The user's file: imports turnkit by name and takes the database URL (empty on embedded) and campaign as arguments.
const LIBRARY_SCRIPT = `import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { capture, openProject, outcomeError, report, run, seed, teardown } from 'turnkit';

const [databaseUrl, campaign] = process.argv.slice(2) as [string, string];
const listeners = () => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
const before = listeners();
let result: Record<string, unknown>;
{
  await using project = await openProject({ databaseUrl: databaseUrl || undefined });
  const captured = await capture(project, {
    campaign,
    turns: { turn: 11 },
    name: 'lib-11',
    scrubKey: 'a scrub key of the user, not a secret',
  });
  const seeded = await seed(project, { fixture: 'fixtures/lib-11.json' });
  const seededTurnsBefore = (
    await project.db.pool.query('SELECT count(*)::int AS n FROM moves WHERE campaign_id = $1 AND turn_number < 11', [
      seeded.key,
    ])
  ).rows[0].n as number;
  await teardown(project, { key: seeded.id });
  const registryAfterTeardown = (await project.db.pool.query('SELECT count(*)::int AS n FROM turnkit.scratch_campaigns'))
    .rows[0].n as number;
  const ran = await run(project, {
    question: {
      id: 'library',
      question: 'Does a function SUT see its own campaign?',
      rubric: { path: 'questions/starter-rubric.md', version: '1' },
      target: 0.5,
      reps: 2,
      fixtures: ['fixtures/lib-11.json'],
      caseFile: 'questions/starter-case-file.md',
      sut: async (request, { db }) => {
        const { rows } = await db.query('SELECT count(*)::int AS n FROM moves WHERE campaign_id = $1 AND turn_number < $2', [
          request.campaign,
          request.turn,
        ]);
        return request.fixture + ' rep ' + request.rep + ': ' + rows[0].n + ' turns before';
      },
    },
  });
  const { report: numbers } = await report(project, { dir: ran.dir });
  const responses: string[] = [];
  for (const name of (await readdir(join(ran.dir, 'reps/lib-11'))).filter((file) => file.endsWith('.json')).sort())
    responses.push(JSON.parse(await readFile(join(ran.dir, 'reps/lib-11', name), 'utf8')).response);
  result = {
    captured: captured.files.map((file) => file.split('/').at(-1)),
    seededTurnsBefore,
    registryAfterTeardown,
    status: ran.status,
    outcome: outcomeError({ run: ran })?.message ?? null,
    fixtures: numbers.fixtures.map(({ fixture, blank, error }) => ({ fixture, blank, error })),
    responses,
  };
}
console.log(JSON.stringify({ ...result, listeners: { before, after: listeners() } }));
`;
