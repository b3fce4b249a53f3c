/** How deep JSON may nest in a file turnkit reads: deeper overflows the stack of the code that walks values. */
export const MAX_JSON_DEPTH = 256;

/** What a scan of valid JSON text found: the first repeated key of an object, the first value nested too deep. */
export interface JsonScan {
  duplicate?: { key: string; offset: number };
  tooDeep?: { offset: number; path: (string | number)[] };
}

interface Level {
  keys?: Set<string>;
  /** Objects: the key being read (undefined while a key is expected). Arrays: the element's index. */
  at: string | number | undefined;
}

/**
 * Scans JSON text that JSON.parse accepted, without recursion (a file nested 100,000 deep must give a message, not
 * a stack overflow): finds the first key an object repeats (JSON.parse keeps the last one silently) and the first
 * value nested deeper than `maxDepth`, each with its offset.
 */
export function scanJson(text: string, maxDepth = MAX_JSON_DEPTH): JsonScan {
  const stack: Level[] = [];
  const found: JsonScan = {};
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: a key when the innermost open object is waiting for one.
      const start = i;
      i++;
      let escaped = false;
      while (i < text.length) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) {
          escaped = true;
          i += 2;
          continue;
        }
        if (d === 0x22) break;
        i++;
      }
      i++;
      const top = stack.at(-1);
      if (top?.keys && top.at === undefined) {
        const raw = text.slice(start, i);
        const key = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (top.keys.has(key)) found.duplicate ??= { key, offset: start };
        top.keys.add(key);
        top.at = key;
      }
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (stack.length >= maxDepth && !found.tooDeep) {
        found.tooDeep = { offset: i, path: stack.map((level) => level.at ?? '') };
        if (found.duplicate) return found;
      }
      stack.push(c === 0x7b ? { keys: new Set(), at: undefined } : { at: 0 });
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c) {
      const top = stack.at(-1);
      if (top) top.at = top.keys ? undefined : (top.at as number) + 1;
    }
    i++;
  }
  return found;
}
