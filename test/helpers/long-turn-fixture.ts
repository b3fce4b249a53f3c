import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serializeDocument } from '../../src/fixture/format.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** The one word the editor tests change: it occurs once, near the middle of the narration. */
export const MIDDLE_WORD = 'blue';

/**
 * A narration of about 600 characters (611) with MIDDLE_WORD once in the middle and no other word starting "blu": changing
 * that word is what a long narration makes slow without search and word movement.
 */
export const LONG_NARRATION = (() => {
  const before =
    'You step out of engineering into the long ring corridor. Pipes tick overhead as the coolant settles, and a maintenance drone hums past with a crate of filters. Reyes calls after you about the pressure readings, but you wave her off and keep walking past the machine shop, the armory and the quiet';
  const after =
    'hatch of the mess hall. Inside, the lights are dimmed for the night shift and the coffee machine gurgles. Dr. Hale sits alone at the far table with a tablet, scrolling through crew reports. She glances up, nods, and goes back to reading while you pour a cup and look out of the viewport. Nobody else is awake.';
  return `${before} ${MIDDLE_WORD} ${after}`;
})();

/**
 * Writes `fixtures/long-turn.json` into a project folder: the sample fixture with turn 19's narration made long and
 * every world fact tied to turn 19, so that turn 19 has more fields than an 80x24 screen shows at once.
 */
export async function writeLongTurnFixture(project: string): Promise<string> {
  const fixture = JSON.parse(await readFile(join(REPO, 'fixtures/meridian-turn-23.json'), 'utf8'));
  fixture.name = 'long-turn';
  const turn = fixture.tables.turns.rows.find((row: { id: string }) => row.id === '19');
  turn.narration = LONG_NARRATION;
  for (const fact of fixture.tables.world_facts.rows) fact.introduced_at_turn_id = '19';
  const file = join(project, 'fixtures', 'long-turn.json');
  await writeFile(file, serializeDocument(fixture));
  return file;
}
