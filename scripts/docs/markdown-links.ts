// Finds dead relative links and dead anchors in Markdown pages, the way GitHub renders them: headings get the
// anchors github-slugger gives them (GitHub's own rules: lower case, punctuation dropped, spaces to hyphens,
// repeats numbered -1, -2), and links inside code blocks or code spans are not links.
import { existsSync, statSync } from 'node:fs';
import { dirname, extname, relative, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';

/** A link that leads nowhere: where it is written and why it is dead. */
export interface DeadLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

/** The text of a page with fenced code blocks blanked (lines kept, so line numbers stay right). */
function withoutCode(text: string, { spans = true } = {}): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    if (marker) {
      fence = marker;
      return '';
    }
    // Code spans are not links either.
    return spans ? line.replace(/(`+)(?:(?!\1).)+\1/g, '') : line;
  });
}

/** The anchors a page's headings (and explicit `<a id>` / `name`) have on GitHub. */
export function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const line of withoutCode(text, { spans: false })) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) anchors.add(slugger.slug(plainText(heading)));
    for (const match of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

/** A heading's text as rendered: links by their text, images dropped, emphasis and HTML tags removed. */
function plainText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '');
}

/** Every inline link and image of a page, with its line number (code blocks and spans left out). */
export function linksOf(text: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  withoutCode(text).forEach((line, index) => {
    for (const match of line.matchAll(/!?\[(?:[^\]]|\\\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ line: index + 1, target: match[1]! });
  });
  return links;
}

/** The dead links of the given pages (paths absolute); `read` returns a page's text. */
export function deadLinks(files: readonly string[], read: (file: string) => string, root: string): DeadLink[] {
  const dead: DeadLink[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (file: string) => {
    let anchors = anchorCache.get(file);
    if (!anchors) anchorCache.set(file, (anchors = anchorsOf(read(file))));
    return anchors;
  };
  for (const file of files) {
    for (const { line, target } of linksOf(read(file))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like are not ours to check
      const [pathPart = '', anchor] = target.split('#', 2) as [string, string | undefined];
      const linked = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
      const where = { file: relative(root, file), line, target };
      if (!existsSync(linked)) {
        dead.push({ ...where, reason: `${relative(root, linked)} does not exist` });
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(linked).isDirectory() || extname(linked) !== '.md') {
        if (!/^L\d+(-L\d+)?$/.test(anchor))
          dead.push({ ...where, reason: `#${anchor} in a file that is not a Markdown page` });
        continue;
      }
      if (!anchorsIn(linked).has(anchor))
        dead.push({ ...where, reason: `${relative(root, linked)} has no heading with the anchor #${anchor}` });
    }
  }
  return dead;
}
