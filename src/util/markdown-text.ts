import { escapedControls } from './visible-controls.js';

/**
 * Untrusted text (a SUT's response, a player's input, an error a SUT printed) as Markdown that renders as the text it
 * is: characters that start markup anywhere (emphasis, code, links, HTML, tables) get a backslash, and so do the marks
 * that start a block at a line's beginning (a heading, a quote, a list, a fence, a rule), so that a response holding
 * `## Mark: pass` or a `<script>` block is neither a heading nor HTML. Control characters are shown as `\u001b`.
 * Lines stay lines, so narration keeps its paragraphs.
 */
export function markdownText(text: string): string {
  const escaped = text
    .replace(/\r\n?/g, '\n')
    // `[` alone breaks a link (`]` and a `>` inside a line are plain); `<` breaks HTML and autolinks.
    .replace(/[\\`*_[<|~&]/g, (char) => `\\${char}`)
    .split('\n')
    .map((line) =>
      line
        .replace(/^(\s*)([#>+=-])/, '$1\\$2')
        // An ordered list's number: the backslash goes before its `.` or `)` (a digit cannot be escaped).
        .replace(/^(\s*\d+)([.)])/, '$1\\$2'),
    )
    .join('\n');
  // Two backslashes, so a reader sees `\u001b`, never the character.
  return escapedControls(escaped, '\\\\');
}

/** Untrusted text on one line of Markdown (a list item, a table cell): its line breaks as spaces, then escaped. */
export function markdownInline(text: string): string {
  return markdownText(text.replace(/\s*\n\s*/g, ' '));
}
