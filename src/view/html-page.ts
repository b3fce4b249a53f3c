import { createHash } from 'node:crypto';
import { escapeHtml } from '../util/escape-html.js';
import { pageScript } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';
import type { PageData } from './view-data.js';

// A Content-Security-Policy source allowing one inline element: its exact text's hash (the page script's as bundled).
const hash = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The Content-Security-Policy of a page: only the page's own script and style, by hash (nothing else inline can
 * run, whatever a response holds), no network for a file (`connect-src 'none'`), the viewer's own server for the
 * viewer, no frames, no forms, no base URL.
 */
export function contentSecurityPolicy(mode: PageData['mode']): string {
  return [
    "default-src 'none'",
    `script-src ${hash(pageScript())}`,
    `style-src ${hash(PAGE_STYLE)}`,
    "img-src 'none'",
    `connect-src ${mode === 'view' ? "'self'" : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * JSON as the text of a `<script type="application/json">` element: `<` written as \u003c, so that no value (a
 * response holding `</script>` or `<!--`) can end the element or start markup; JSON.parse reads it back unchanged.
 * U+2028 and U+2029 are escaped too, for any reader that takes the text as JavaScript.
 */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * A whole page: the data once as JSON, one inline style and one inline script, both allowed by their hashes; `first`
 * is HTML (escaped by its maker) shown until the script draws the page.
 */
export function renderPage(data: PageData, title: string, first = ''): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(data.mode)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head>',
    '<body>',
    `<main id="app">${first}</main>`,
    '<noscript>This report is drawn by its script; the numbers are in the JSON below, or run turnkit report --md.</noscript>',
    `<script type="application/json" id="turnkit-data">${jsonForScript(data)}</script>`,
    `<script>${pageScript()}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
