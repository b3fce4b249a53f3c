import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, runCli } from '../helpers/cli.js';
import { SAMPLE_TEXT, rowById, sha256Of } from '../helpers/construct-fixtures.js';
import { hasTmux, killTmuxServer, requireTmux, startInTmux, tmux, tmuxQuiet, waitForPane } from '../helpers/tmux.js';
import { parseFixtureText } from '../../src/fixture/read-fixture.js';
import type { Fixture } from '../../src/fixture/format.js';

const FIXED = 'You ride the lift up from engineering to the mess hall on deck 2. The coffee is bitter.';
const TYPED = 'I take the lift.';
const RECAPTURED_NARRATION = 'Recaptured: the mess hall is two decks up.';
const RECAPTURED_INPUT = 'Recaptured input.';

// A constructed fixture that changes two columns of turn 19, then a recapture that moved both of its old values.
describe('turnkit rebase --interactive in a real terminal', () => {
  let project: string;
  const base = parseFixtureText(SAMPLE_TEXT, 'sample');
  const narration19 = rowById(base, 'turns', '19').narration as string;
  const input19 = rowById(base, 'turns', '19').player_input as string;
  const recaptured = SAMPLE_TEXT.replace(JSON.stringify(narration19), JSON.stringify(RECAPTURED_NARRATION)).replace(
    JSON.stringify(input19),
    JSON.stringify(RECAPTURED_INPUT),
  );

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-rebase-e2e-'));
    await mkdir(join(project, 'fixtures'));
    await writeFile(join(project, 'fixtures', 'base.json'), SAMPLE_TEXT);
    await writeFile(
      join(project, 'patch.json'),
      JSON.stringify({ turns: [{ id: '19', narration: FIXED, player_input: TYPED }] }),
    );
    const made = await runCli(
      ['construct', 'fixtures/base.json', '--turn', '19', '--patch', 'patch.json', '--name', 'two', '--why', 'both'],
      { cwd: project },
    );
    expect(made.code, made.stderr).toBe(0);
    await writeFile(join(project, 'fixtures', 'base.json'), recaptured);
  }, 120_000);
  afterAll(async () => {
    killTmuxServer();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('has tmux to drive the resolver with (required on CI)', () => {
    expect(hasTmux || !requireTmux).toBe(true);
  });

  it('refuses --interactive without a terminal, naming --keep', async () => {
    const result = await runCli(['rebase', 'constructed/two.json', '--interactive'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('rebase --interactive needs a terminal; resolve with --keep PATH=base|change\n');
  });

  it.runIf(hasTmux)(
    "lists both conflicts with the old base, new base and change values; keeps the new base's for one and the change for the other (tmux, 80x24)",
    async () => {
      const session = `turnkit-rebase-${process.pid}`;
      const before = await readFile(join(project, 'constructed', 'two.json'), 'utf8');
      startInTmux(
        session,
        project,
        `${process.execPath} ${BIN} rebase constructed/two.json --interactive; echo "exit=$?"; sleep 30`,
      );
      const press = async (key: string, shows: string): Promise<string> => {
        tmux(['send-keys', '-t', session, key]);
        return waitForPane(session, shows);
      };
      try {
        const first = await waitForPane(session, '2 conflict(s) · 2 to choose');
        expect(first.split('\n')[0]).toBe(
          'rebase constructed/two.json → fixtures/base.json · 2 conflict(s) · 2 to choose',
        );
        // The first path: the player's input, its three values under their headings.
        expect(first).toMatch(/▸ turns\[id=19\]\.player_input +choose b or c/);
        expect(first).toMatch(/ {2}turns\[id=19\]\.narration +choose b or c/);
        expect(first).toContain('old base (what the change expected):');
        expect(first).toContain(`  ${input19}`);
        expect(first).toContain(`  ${RECAPTURED_INPUT}`);
        expect(first).toContain(`  ${TYPED}`);
        // Saving before every path has a side is refused; nothing is written.
        await press('s', '2 path(s) still to choose: b or c on each');
        const kept = await press('b', '1 to choose');
        expect(kept).toMatch(/▸ turns\[id=19\]\.player_input +keep new base/);
        expect(kept).toContain('new base [b]:  ✓ kept');
        expect(kept).toContain('change [c]:  (dropped)');
        const second = await press('Down', '▸ turns[id=19].narration');
        expect(second).toContain(`  ${RECAPTURED_NARRATION}`);
        expect(second).toContain('  You ride the lift up from engineering to the mess hall on deck 2.');
        await press('c', 'all chosen');
        expect(await readFile(join(project, 'constructed', 'two.json'), 'utf8')).toBe(before);
        const done = await press('s', 'exit=0');
        expect(done).toContain("turns[id=19].player_input: kept the new base's value (change dropped)");
        expect(done).toContain('turns[id=19].narration: kept the change');
        // The summary line is wider than the pane, which wraps it.
        expect(done.replace(/\n/g, '')).toMatch(
          /constructed\/two\.json: rebased onto fixtures\/base\.json \(sha256 \w{12} -> \w{12}\), 1 change\(s\) re-applied/,
        );
      } finally {
        tmuxQuiet(['kill-session', '-t', session]);
      }
      const saved = JSON.parse(await readFile(join(project, 'constructed', 'two.json'), 'utf8'));
      expect(saved.base.sha256).toBe(sha256Of(recaptured));
      expect(saved.changeset[0].changes[0].changes[0].changes[0].changes).toEqual([
        { type: 'UPDATE', key: 'narration', value: FIXED, oldValue: RECAPTURED_NARRATION },
      ]);
      const materialized = await runCli(['materialize', 'constructed/two.json'], { cwd: project });
      expect(materialized.code, materialized.stderr).toBe(0);
      const row = rowById(JSON.parse(materialized.stdout) as Fixture, 'turns', '19');
      expect(row.narration).toBe(FIXED);
      expect(row.player_input).toBe(RECAPTURED_INPUT);
    },
    300_000,
  );
});
