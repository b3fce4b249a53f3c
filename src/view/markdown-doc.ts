import MarkdownIt from 'markdown-it';
import { MARKDOWN_TAGS } from './view-data.js';

/**
 * Markdown as the page builds it: text, or an element of an allowed tag with its children. The page makes elements
 * from this with textContent only (never markup from a file), so a rubric or case file can hold no script.
 */
export type MarkdownNode = string | [tag: string, children: MarkdownNode[]];

const ALLOWED = new Set(MARKDOWN_TAGS);

// HTML in the source is text (html: false); links and images are not parsed at all, so `[x](javascript:...)` stays
// the characters it is: nothing on the page navigates or loads.
const md = new MarkdownIt({ html: false, linkify: false, typographer: false }).disable(['link', 'image', 'autolink']);

type Token = ReturnType<MarkdownIt['parse']>[number];

/** A Markdown file (a rubric, a case file) as nodes for the page: headings, lists, tables, emphasis, code. */
export function markdownDoc(source: string): MarkdownNode[] {
  return nodes(md.parse(source, {}));
}

function nodes(tokens: readonly Token[]): MarkdownNode[] {
  const root: MarkdownNode[] = [];
  const stack: MarkdownNode[][] = [root];
  for (const token of tokens) {
    const top = stack.at(-1)!;
    if (token.type === 'inline') {
      top.push(...nodes(token.children ?? []));
    } else if (token.nesting === 1) {
      // A tight list's paragraphs are hidden: their text goes straight into the item.
      if (token.hidden || !ALLOWED.has(token.tag)) stack.push(top);
      else {
        const children: MarkdownNode[] = [];
        top.push([token.tag, children]);
        stack.push(children);
      }
    } else if (token.nesting === -1) {
      if (stack.length > 1) stack.pop();
    } else if (token.type === 'code_inline') top.push(['code', [token.content]]);
    else if (token.type === 'fence' || token.type === 'code_block') top.push(['pre', [['code', [token.content]]]]);
    else if (token.type === 'softbreak') top.push('\n');
    else if (token.type === 'hardbreak') top.push(['br', []]);
    else if (token.type === 'hr') top.push(['hr', []]);
    else if (token.content !== '') top.push(token.content);
  }
  return root;
}
