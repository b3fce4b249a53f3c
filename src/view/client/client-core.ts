/**
 * The page script's helpers: elements built with textContent only (data never goes through innerHTML or into an
 * event attribute or a URL), SVG elements, and the number formats of `turnkit report`'s text tables.
 */
export const CLIENT_CORE = String.raw`
var SVGNS = 'http://www.w3.org/2000/svg';
function setAll(node, attrs) {
  if (!attrs) return node;
  for (var key in attrs) {
    var value = attrs[key];
    if (value === null || value === undefined || value === false) continue;
    if (key === 'text') node.textContent = String(value);
    else if (key.slice(0, 2) === 'on') node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, String(value));
  }
  return node;
}
function addAll(node, children) {
  if (children === null || children === undefined) return node;
  if (!Array.isArray(children)) children = [children];
  for (var i = 0; i < children.length; i++) {
    var child = children[i];
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
  return node;
}
function h(tag, attrs, children) { return addAll(setAll(document.createElement(tag), attrs), children); }
function s(tag, attrs, children) { return addAll(setAll(document.createElementNS(SVGNS, tag), attrs), children); }
// A rendered rubric or case file (the server's Markdown nodes): elements of the allowed tags only, text by
// textContent; an unknown tag keeps its text in a span. Nothing of the file is ever parsed as markup here.
var MD_TAGS = {};
['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'em', 'strong', 's', 'hr', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td'].forEach(function (tag) { MD_TAGS[tag] = true; });
function mdNodes(nodes) {
  return nodes.map(function (node) {
    return typeof node === 'string' ? node : h(MD_TAGS[node[0]] === true ? node[0] : 'span', null, mdNodes(node[1]));
  });
}
function markdownBlock(nodes, attrs) { return h('div', Object.assign({ class: 'markdown' }, attrs), mdNodes(nodes)); }
// A fixture's name in a chart's label space: cut in the middle past max characters (both ends tell fixtures apart),
// the whole name in the group's <title>, shown on hover and read by screen readers.
function chartLabel(attrs, name, max) {
  var keep = max - 1;
  var shown = name.length <= max ? name : name.slice(0, Math.ceil(keep / 2)) + '\u2026' + name.slice(name.length - Math.floor(keep / 2));
  return s('g', { class: 'chart-label', 'data-name': name }, [s('title', { text: name }), s('text', Object.assign({ text: shown }, attrs))]);
}
function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
function fixed(value, digits) { return value === null || value === undefined ? '-' : value.toFixed(digits); }
function rateText(m) { return m.rate === null ? '-' : m.rate.toFixed(2) + ' (' + m.pass + '/' + (m.pass + m.fail) + ')'; }
function intervalText(m) { return m.wilson ? '[' + m.wilson.low.toFixed(2) + ', ' + m.wilson.high.toFixed(2) + ']' : '-'; }
function signedText(d) { return d === null ? '-' : (d > 0 ? '+' : d < 0 ? '-' : '\u00b1') + Math.abs(d).toFixed(2); }
function pText(p) { return p === null ? '-' : p < 0.001 ? '<0.001' : p.toFixed(3); }
function latencyText(f) { return f.latency.median === null ? '-' : Math.round(f.latency.median) + '/' + Math.round(f.latency.p95); }
function table(caption, header, rows, attrs) {
  return h('table', attrs, [
    caption ? h('caption', { text: caption }) : null,
    h('thead', null, h('tr', null, header.map(function (cell) { return h('th', { scope: 'col', text: cell }); }))),
    h('tbody', null, rows.map(function (row) {
      return h('tr', row.attrs || null, row.cells.map(function (cell, i) {
        var spec = typeof cell === 'object' && cell !== null ? cell : { text: cell };
        return h(i === 0 ? 'th' : 'td', { scope: i === 0 ? 'row' : null, 'data-k': spec.k || null, text: spec.text });
      }));
    })),
  ]);
}
`;
