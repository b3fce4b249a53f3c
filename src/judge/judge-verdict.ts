import { visit } from 'jsonc-parser';
import { z } from 'zod';
import { safeParseInWords } from '../util/zod-messages.js';

/** What a judge must answer: a verdict and a reason, nothing else. */
const verdictSchema = z
  .object({
    verdict: z.enum(['pass', 'fail', 'na']),
    reason: z.string().trim().min(1, 'a reason is required').max(2_000),
  })
  .strict();

/** A verdict as read, or why there is none (which is marked `error`, never `pass`). */
export type ParsedVerdict = { mark: 'pass' | 'fail' | 'na'; reason: string } | { mark: 'error'; reason: string };

/**
 * Reads a judge's answer, failing closed: exactly one JSON object (a Markdown code fence around it is allowed)
 * with a verdict of pass, fail or na and a string reason. Prose around it, two objects, another verdict word, a
 * missing reason, or anything else is `error`.
 */
export function parseVerdict(text: string): ParsedVerdict {
  const body = text
    .trim()
    .replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/u, '$1')
    .trim();
  if (body === '') return { mark: 'error', reason: 'the judge answered nothing' };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { mark: 'error', reason: `the judge's answer is not one JSON object: ${snippet(body)}` };
  }
  // JSON.parse keeps the last of two equal keys: {"verdict": "fail", "verdict": "pass"} must not read as a pass.
  const repeated = repeatedKey(body);
  if (repeated !== undefined) return { mark: 'error', reason: `the judge's answer names "${repeated}" twice` };
  const parsed = safeParseInWords(verdictSchema, value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      mark: 'error',
      reason: `the judge's verdict is invalid at ${issue.path.join('.') || 'the top'}: ${issue.message}`,
    };
  }
  return { mark: parsed.data.verdict, reason: parsed.data.reason.replace(/\s+/g, ' ').trim() };
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 79)}…` : flat);
}

/** The first key an object of the JSON text names twice, if any. */
function repeatedKey(text: string): string | undefined {
  const objects: Set<string>[] = [];
  let repeated: string | undefined;
  visit(text, {
    onObjectBegin: () => void objects.push(new Set()),
    onObjectEnd: () => void objects.pop(),
    onObjectProperty: (property) => {
      const keys = objects[objects.length - 1];
      if (keys?.has(property)) repeated ??= property;
      keys?.add(property);
    },
  });
  return repeated;
}
