import type { MarkdownNode } from '../../markdown-doc.js';
import { MARKDOWN_TAGS } from '../../view-data.js';

/*
 * The page script's element builders. Text goes in by textContent only: data never goes through innerHTML, into an
 * event attribute or into a URL, so a response holding markup stays text.
 */

/** Attributes of an element: `text` sets its textContent, `on...` adds a listener; null, undefined and false are left out. */
export type Attrs = Record<string, unknown> | null | undefined;

/** A child: an element, or a string or number put in as a text node; null, undefined and false are left out. */
export type Child = Node | string | number | null | undefined | false;

const SVGNS = 'http://www.w3.org/2000/svg';

function setAll<E extends Element>(node: E, attrs: Attrs): E {
  if (!attrs) return node;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'text') node.textContent = String(value);
    else if (key.slice(0, 2) === 'on') node.addEventListener(key.slice(2), value as EventListener);
    else node.setAttribute(key, String(value));
  }
  return node;
}

/** Appends children to node (see `Child`); returns node. */
export function addAll<N extends Node>(node: N, children: Child | Child[]): N {
  if (children === null || children === undefined) return node;
  const list = Array.isArray(children) ? children : [children];
  for (const child of list) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(
      typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child,
    );
  }
  return node;
}

/** An HTML element with its attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs,
  children?: Child | Child[],
): HTMLElementTagNameMap[K];
export function h(tag: string, attrs?: Attrs, children?: Child | Child[]): HTMLElement;
export function h(tag: string, attrs?: Attrs, children?: Child | Child[]): HTMLElement {
  return addAll(setAll(document.createElement(tag), attrs), children);
}

/** An SVG element with its attributes and children. */
export function s(tag: string, attrs?: Attrs, children?: Child | Child[]): SVGElement {
  return addAll(setAll(document.createElementNS(SVGNS, tag) as SVGElement, attrs), children);
}

/** A section of the page (`attrs` its id or class) under its heading. */
export function section(attrs: Attrs, title: string, children: Child[] = []): HTMLElement {
  return h('section', attrs, [h('h2', { text: title }), ...children]);
}

/** Removes every child of node; returns node. */
export function clear<N extends Node>(node: N): N {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// A rendered rubric or case file (the server's Markdown nodes): elements of the allowed tags only, text by
// textContent; an unknown tag keeps its text in a span. Nothing of the file is ever parsed as markup here.
const MD_TAGS = new Set(MARKDOWN_TAGS);

/** The server's Markdown nodes as elements and text nodes. */
export function mdNodes(nodes: MarkdownNode[]): Child[] {
  return nodes.map((node) =>
    typeof node === 'string' ? node : h(MD_TAGS.has(node[0]) ? node[0] : 'span', null, mdNodes(node[1])),
  );
}

/** A rendered Markdown document in its box. */
export function markdownBlock(nodes: MarkdownNode[], attrs?: Attrs): HTMLElement {
  return h('div', { class: 'markdown', ...attrs }, mdNodes(nodes));
}

/**
 * A fixture's name in a chart's label space: cut in the middle past max characters (both ends tell fixtures apart),
 * the whole name in the group's <title>, shown on hover and read by screen readers.
 */
export function chartLabel(attrs: Record<string, unknown>, name: string, max: number): SVGElement {
  const keep = max - 1;
  const shown =
    name.length <= max
      ? name
      : `${name.slice(0, Math.ceil(keep / 2))}\u2026${name.slice(name.length - Math.floor(keep / 2))}`;
  return s('g', { class: 'chart-label', 'data-name': name }, [
    s('title', { text: name }),
    s('text', { text: shown, ...attrs }),
  ]);
}
