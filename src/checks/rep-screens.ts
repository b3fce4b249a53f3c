import type { HiddenRule } from '../question/hidden-format.js';
import type { ToolChecks } from '../question/tools-format.js';
import type { ScreenResult } from '../question/screen-result.js';
import type { ToolCall } from '../sut/tool-call.js';
import type { EffectsSummary } from '../scratch/effects/scratch-effects.js';
import { type HiddenValues, hiddenScreens } from './hidden-checks.js';
import { toolScreens } from './tool-checks.js';

/** The screens of a question beside its `checks`: its `tools:` rules and its `hidden:` rows. */
export interface ScreenChecks {
  tools?: ToolChecks | undefined;
  hidden?: readonly HiddenRule[] | undefined;
}

/** What the screens read of a rep, or of one rollout turn. */
export interface ScreenEvidence {
  response: string | null;
  toolCalls?: readonly ToolCall[] | undefined;
  effects: EffectsSummary | null;
}

/**
 * The tool and hidden-row screens of one rep (or turn), in the question's order: tools first, then hidden rows.
 * `hidden` holds the values each hidden rule takes in the rep's fixture (hiddenValues); without them those screens
 * are unscored. Pure, so that the per-screen results files and the combined verdict read the same results.
 */
export function repScreens(
  checks: ScreenChecks,
  evidence: ScreenEvidence,
  hidden?: readonly HiddenValues[],
): ScreenResult[] {
  const screens = checks.tools ? toolScreens(checks.tools, evidence) : [];
  if (checks.hidden)
    screens.push(
      ...hiddenScreens(
        checks.hidden,
        hidden ?? checks.hidden.map(() => ({ missing: "the rep's fixture could not be read" })),
        evidence,
      ),
    );
  return screens;
}

/** Whether a question has any screen besides its checks. */
export function hasScreens(checks: ScreenChecks): boolean {
  return checks.tools !== undefined || (checks.hidden?.length ?? 0) > 0;
}
