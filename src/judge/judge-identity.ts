import { sha256 } from '../run-dir/manifest.js';
import { judgePrompt } from './judge-prompt.js';

/**
 * sha256 of the judge's prompt template (its instructions and the layout of the rep it is shown, with empty
 * placeholders): a calibration measured under one prompt says nothing about another, so it is keyed by this.
 */
export function judgePromptSha256(): string {
  const prompt = judgePrompt({ question: '', rubric: '', caseFile: '', response: '' });
  return sha256(Buffer.from(`${prompt.system}\n\n${prompt.user}`, 'utf8'));
}
