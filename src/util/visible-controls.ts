/**
 * Text for a terminal with its control characters (C0 but newline and tab, DEL, C1, bidirectional controls) written
 * as visible `\uXXXX` escapes.
 * Game, player and model text is untrusted: a raw escape sequence in it would restyle or move the terminal, set its
 * title, write the clipboard (OSC 52) or hide a link (OSC 8). Tabs are left to the caller, which widens them.
 */
export function visibleControls(text: string): string {
  return escapedControls(text.replace(/\r\n/g, '\n'), '\\');
}

/**
 * Every control character of `text` (as `visibleControls` lists them) as `{backslash}uXXXX`: one backslash for a
 * terminal, two where Markdown would take one away.
 */
export function escapedControls(text: string, backslash: string): string {
  // Bidirectional overrides and isolates (U+202E reverses what follows) too: they make text read otherwise than it is.
  return text.replace(
    /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (char) => `${backslash}u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
