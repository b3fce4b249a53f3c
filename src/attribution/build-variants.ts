import { saveConstructed } from '../fixture/constructed/save-constructed.js';
import { loadFixture, type LoadedFixture } from '../fixture/load-fixture.js';
import { neutraliserWord, neutraliseTurn, type Neutraliser } from './neutralise-turn.js';
import type { TurnSelection } from './select-turns.js';

/** One arm of an attribution: the turns it neutralises and the constructed fixture that does it. */
export interface Variant extends TurnSelection {
  /** The constructed fixture's name (its reps' fixture name): `meridian-turn-23-no-t19`. */
  name: string;
  /** Absolute path of the constructed fixture. */
  file: string;
}

/** The name of the variant that neutralises `turns` of `base` the way `neutraliser` does. */
function variantName(base: string, turns: readonly number[], neutraliser: Neutraliser): string {
  const first = turns[0]!;
  const last = turns[turns.length - 1]!;
  return `${base}-${neutraliserWord(neutraliser)}-t${first === last ? first : `${first}-${last}`}`;
}

/**
 * Writes the constructed fixture of one variant into `dir`. A variant of one turn is one constructed fixture on the
 * base; a window of turns is a chain, one constructed fixture per turn each on the one before (a constructed fixture
 * changes one turn), the last named after the variant and the others `NAME.step-T`.
 */
export async function buildVariant(
  base: LoadedFixture,
  selection: TurnSelection,
  neutraliser: Neutraliser,
  dir: string,
  why: string,
): Promise<Variant> {
  const name = variantName(base.fixture.name, selection.turns, neutraliser);
  let current = base;
  let file = base.path;
  for (const [index, turn] of selection.turns.entries()) {
    const last = index === selection.turns.length - 1;
    const saved = await saveConstructed({
      base: current,
      edited: neutraliseTurn(current.fixture, turn, neutraliser),
      turn,
      name: last ? name : `${name}.step-${turn}`,
      why,
      dir,
      // The attribution's own folder, or --save's rewrite of a variant it wrote itself: the same bytes again.
      force: true,
      // A patch's own mistake is named by the patch file, as `construct --patch` names it.
      ...(neutraliser.kind === 'patches' ? { source: neutraliser.patches.get(turn)?.file } : {}),
    });
    file = saved.file;
    if (!last) current = await loadFixture(file);
  }
  return { ...selection, name, file };
}
