/**
 * Text for a terminal with its control characters (C0 but newline, DEL, C1) written as visible `\uXXXX` escapes.
 * Game, player and model text is untrusted: a raw escape sequence in it would restyle or move the terminal, set its
 * title, write the clipboard (OSC 52) or hide a link (OSC 8). Tabs are left to the caller, which widens them.
 */
export function visibleControls(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
