import type { Key } from 'ink';
import type { ChangeConflict } from '../../fixture/constructed/apply-changes.js';
import type { KeepChoice, KeepSide } from '../../fixture/constructed/resolve-conflicts.js';

/** The resolver's screen state: which conflict is selected, the side chosen for each, and what the status line says. */
export interface ResolverState {
  readonly selected: number;
  /** One entry per conflict, in the order listed: the side kept, or undefined while not chosen. */
  readonly choices: readonly (KeepSide | undefined)[];
  /** First line of the selected conflict's values shown. */
  readonly scroll: number;
  readonly message?: { readonly text: string; readonly error: boolean } | undefined;
  /** Asking whether to drop the choices made and quit. */
  readonly confirmQuit: boolean;
  /** A save is under way: keys wait for it. */
  readonly saving: boolean;
}

/** What a key asks of the app beyond a new state. */
export type ResolverAction = 'save' | 'quit' | undefined;

/** The sizes a key's effect depends on. */
export interface ResolverLayout {
  /** Lines of the selected conflict's values, and how many fit on the screen. */
  readonly detailLines: number;
  readonly detailHeight: number;
}

/** Nothing chosen, the first conflict selected. */
export function initialResolverState(count: number): ResolverState {
  return {
    selected: 0,
    choices: Array.from({ length: count }, () => undefined),
    scroll: 0,
    confirmQuit: false,
    saving: false,
  };
}

/** The choices as `rebase` takes them: one per conflicting path. */
export function keepChoicesOf(conflicts: readonly ChangeConflict[], state: ResolverState): KeepChoice[] {
  return conflicts.flatMap((conflict, i) => {
    const keep = state.choices[i];
    return keep === undefined ? [] : [{ path: conflict.path, keep }];
  });
}

/**
 * Applies one key: ↑↓ select a conflict, b keeps the new base's value, c keeps the change, u clears the choice,
 * PgUp/PgDn scroll the values, s or Ctrl-S saves once every conflict has a side, q quits (asking first when choices
 * would be lost).
 */
export function reduceResolver(
  state: ResolverState,
  conflicts: readonly ChangeConflict[],
  input: string,
  key: Key,
  layout: ResolverLayout,
): { state: ResolverState; action?: ResolverAction } {
  if (state.saving) return { state };
  if (state.confirmQuit) {
    if (input === 'y') return { state: { ...state, confirmQuit: false }, action: 'quit' };
    return { state: { ...state, confirmQuit: false, message: undefined } };
  }
  const quiet = { ...state, message: undefined };
  const quit = (): { state: ResolverState; action?: ResolverAction } =>
    state.choices.some((choice) => choice !== undefined)
      ? { state: { ...quiet, confirmQuit: true } }
      : { state: quiet, action: 'quit' };
  if ((key.ctrl && input === 'c') || key.escape) return quit();
  if (key.ctrl && input === 's') return save(state, quiet);
  if (key.ctrl || key.meta) return { state };
  const select = (index: number): ResolverState => ({ ...quiet, selected: index, scroll: 0 });
  if (key.upArrow || input === 'k') return { state: select(Math.max(0, state.selected - 1)) };
  if (key.downArrow || input === 'j' || key.tab)
    return { state: select(Math.min(conflicts.length - 1, state.selected + 1)) };
  const maxScroll = Math.max(0, layout.detailLines - layout.detailHeight);
  const page = Math.max(1, layout.detailHeight - 1);
  if (key.pageDown || input === ' ') return { state: { ...quiet, scroll: Math.min(maxScroll, state.scroll + page) } };
  if (key.pageUp) return { state: { ...quiet, scroll: Math.max(0, state.scroll - page) } };
  const choose = (keep: KeepSide | undefined): ResolverState => {
    const choices = [...state.choices];
    choices[state.selected] = keep;
    return { ...quiet, choices };
  };
  if (input === 'b') return { state: choose('base') };
  if (input === 'c') {
    if (conflicts[state.selected]?.base === undefined)
      return {
        state: {
          ...state,
          message: { text: 'the new base has no such row or column: only b (keep the new base) applies', error: true },
        },
      };
    return { state: choose('change') };
  }
  if (input === 'u') return { state: choose(undefined) };
  if (input === 's') return save(state, quiet);
  if (input === 'q') return quit();
  return { state };
}

// Saving needs a side for every path: the rebase writes all of them at once or nothing.
function save(state: ResolverState, quiet: ResolverState): { state: ResolverState; action?: ResolverAction } {
  const open = state.choices.filter((choice) => choice === undefined).length;
  if (open > 0)
    return { state: { ...state, message: { text: `${open} path(s) still to choose: b or c on each`, error: true } } };
  return { state: { ...quiet, saving: true }, action: 'save' };
}
