import type { Key } from 'ink';

/** A key as turnkit's screens read it: ink's, plus whether a Delete key was the forward one (ESC [ 3 ~). */
export type KeyPress = Key & { readonly forwardDelete?: boolean };

// ink names both DEL (0x7f, what Backspace sends in most terminals) and ESC [ 3 ~ (the Delete key) "delete"; only the
// bytes read tell them apart. Modified forms: ESC [ 3 ; m ~ (xterm), ESC [ 3 $ and ESC [ 3 ^ (rxvt).
const FORWARD_DELETE = /^\x1b\[3(;\d+)?[~$^]$/;

/**
 * Splits one read from the terminal into key events: keys typed faster than the app reads them (or sent by a
 * script) arrive as one chunk, and an Enter or a Ctrl key inside it must still act as that key, not become text.
 * `raw` is the chunk as read (useRawInput), which marks the forward Delete key.
 */
export function keyEvents(input: string, key: Key, raw?: string): { input: string; key: KeyPress }[] {
  if (key.delete && !key.meta && raw !== undefined && FORWARD_DELETE.test(raw))
    return [{ input, key: { ...key, forwardDelete: true } }];
  if (input.length <= 1 || key.ctrl || key.meta || key.escape || !/[\x01-\x1a\x7f]/.test(input))
    return [{ input, key }];
  const plain: Key = { ...key, return: false, ctrl: false, tab: false, backspace: false, delete: false };
  const events: { input: string; key: Key }[] = [];
  for (const part of input.split(/([\x01-\x1a\x7f])/)) {
    if (part === '') continue;
    const code = part.charCodeAt(0);
    if (part.length > 1 || (code > 0x1a && code !== 0x7f)) events.push({ input: part, key: plain });
    else if (part === '\r') events.push({ input: '\r', key: { ...plain, return: true } });
    else if (part === '\t') events.push({ input: '\t', key: { ...plain, tab: true } });
    else if (code === 0x7f) events.push({ input: '', key: { ...plain, delete: true } });
    else events.push({ input: String.fromCharCode(code + 96), key: { ...plain, ctrl: true } });
  }
  return events;
}
