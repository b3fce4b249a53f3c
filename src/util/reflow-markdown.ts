/** A line that starts a block of its own: a heading, a list item, a table row, a quote, a rule. */
const BLOCK_START = /^\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s|\||>|(-{3,}|\*{3,}|_{3,})\s*$)/;
/** A line that nothing may be joined to: a heading, a table row, a rule. */
const STANDS_ALONE = /^\s*(#{1,6}\s|\||(-{3,}|\*{3,}|_{3,})\s*$)/;
const FENCE = /^\s*(```|~~~)/;

/**
 * Joins the lines of hard-wrapped Markdown paragraphs and list items into one line each, so a screen can wrap them
 * to its own width. Headings, table rows, fenced code, blank lines and hard breaks (two trailing spaces) stay.
 */
export function reflowMarkdown(text: string): string {
  const out: string[] = [];
  let joinable = false;
  let fenced = false;
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) {
      fenced = !fenced;
      out.push(line);
      joinable = false;
      continue;
    }
    if (fenced || line.trim() === '') {
      out.push(line);
      joinable = false;
      continue;
    }
    // A line indented as code (four spaces after a blank line) is not a continuation either.
    if (joinable && !BLOCK_START.test(line)) {
      out[out.length - 1] = `${out.at(-1)!.trimEnd()} ${line.trim()}`;
    } else {
      if (!joinable && /^( {4}|\t)/.test(line) && !BLOCK_START.test(line)) {
        out.push(line);
        continue;
      }
      out.push(line);
    }
    joinable = !STANDS_ALONE.test(line) && !/ {2}$|\\$/.test(line);
  }
  return out.join('\n');
}
