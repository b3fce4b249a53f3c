import { sha256 } from '../run-dir/manifest.js';
import { judgePrompt } from './judge-prompt.js';

/**
 * sha256 of the judge's prompt template (its instructions and the layout of the rep it is shown, with empty
 * placeholders): a calibration measured under one prompt says nothing about another, so it is keyed by this. A judge
 * shown the game's state (`withState`) has a prompt of its own, so its calibrations never mix with one shown text.
 */
export function judgePromptSha256(withState = false): string {
  const prompt = judgePrompt({
    question: '',
    rubric: '',
    caseFile: '',
    response: '',
    ...(withState ? { state: '' } : {}),
  });
  return sha256(Buffer.from(`${prompt.system}\n\n${prompt.user}`, 'utf8'));
}
