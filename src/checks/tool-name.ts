// Characters that change how a name is written, not what it says: soft hyphen, zero-width space, joiners, word
// joiner, byte-order mark, and the bidirectional marks and isolates.
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * Text as the checks compare it: Unicode-normalized (NFKC, so a full-width or ligature letter is the plain one) with
 * the invisible characters taken out. A SUT cannot pass a rule with `delete_job\u200b` or hide a value with soft
 * hyphens inside it.
 */
export function checkedText(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

/** A tool's name as the rules compare it: checked text, trimmed, in lower case (`"Delete_Job "` is `delete_job`). */
export function toolKey(name: string): string {
  return checkedText(name).trim().toLowerCase();
}

/** Whether two names are the same tool's (toolKey). */
export function sameTool(a: string, b: string): boolean {
  return toolKey(a) === toolKey(b);
}
