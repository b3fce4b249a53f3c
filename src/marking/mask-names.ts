/**
 * A masker that replaces each name (a key of `names`) with its neutral stand-in wherever a reader could still tell it:
 * in any letter case, with its separators (`-`, `_`, a space) swapped, doubled away or dropped, and with any of its
 * characters written URL-encoded (`%2D`, `%252D`), as an HTML character reference (`&#45;`, `&#x2d;`, `&hyphen;`) or
 * a JSON escape (`\u002d`). Longer names win, so `x-fixed` is not read as `x` plus a tell-tale `-fixed`. The terminal
 * marker and the viewer's blind re-mark both show text through this, so the two cannot drift apart.
 */
export function maskNames(names: ReadonlyMap<string, string>): (text: string) => string {
  const terms = [...names.keys()].filter((term) => term !== '').sort((a, b) => b.length - a.length);
  if (terms.length === 0) return (text) => text;
  const neutral = terms.map((term) => names.get(term)!);
  // A name counts only as a whole word: a fixture called "deck" must not turn "deck 2" into "case 1 2". An encoded
  // character just before it (`%2F` of a path, `&#32;`) is a boundary too, or `dir%2Fname` would keep the name.
  const before = String.raw`(?:(?<=%[0-9a-f]{2})|(?<=&#?\w{1,8};)|(?<![\p{L}\p{N}_.-]))`;
  const after = String.raw`(?![\p{L}\p{N}_-])`;
  const pattern = new RegExp(`${before}(?:${terms.map((term) => `(${termPattern(term)})`).join('|')})${after}`, 'giu');
  return (text) =>
    text.replace(pattern, (...args: unknown[]) => {
      const groups = args.slice(1, 1 + terms.length);
      const index = groups.findIndex((group) => group !== undefined);
      return index < 0 ? String(args[0]) : neutral[index]!;
    });
}

// The characters a name's words are joined by: any of them stands for any other, or none at all.
const SEPARATORS = new Set(['-', '_', ' ']);
const SEPARATOR = String.raw`(?:[-_ +\u00a0\u2010-\u2015\u2212]|%(?:25)?(?:2d|5f|20|a0)|&#0*(?:45|95|32|160);?|&#x0*(?:2d|5f|20|a0);?|&(?:hyphen|dash|minus|lowbar|UnderBar|nbsp);|\\u00(?:2d|5f|20|a0))?`;
const NAMED: Record<string, string> = { '.': 'period', '/': 'sol', ':': 'colon' };

function termPattern(term: string): string {
  let out = '';
  for (const char of term) out += SEPARATORS.has(char) ? SEPARATOR : charPattern(char);
  return out;
}

// One character of a name, literally (the `i` flag takes care of its case) or in any of its encoded forms.
function charPattern(char: string): string {
  const forms = new Set<string>([escapeRegExp(char)]);
  for (const variant of new Set([char, char.toLowerCase(), char.toUpperCase()])) {
    const code = variant.codePointAt(0)!;
    const bytes = [...Buffer.from(variant, 'utf8')].map((byte) => `%(?:25)?${hex(byte, 2)}`).join('');
    forms.add(bytes);
    forms.add(`&#0*${code};?`);
    forms.add(`&#x0*${code.toString(16)};?`);
    if (code <= 0xffff) forms.add(`\\\\u${hex(code, 4)}`);
  }
  const named = NAMED[char];
  if (named) forms.add(`&${named};`);
  return `(?:${[...forms].join('|')})`;
}

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, '0');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
