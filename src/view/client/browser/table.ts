import { type Attrs, h } from './dom.js';

/** A cell: its text, or its text with the `data-k` the tests and readers find it by. */
export type Cell = string | number | { k?: string; text: string | number };

/** A row: its cells (the first is the row's header) and the row element's attributes. */
export interface Row {
  attrs?: Attrs;
  cells: Cell[];
}

/** A table with an optional caption, a header row and rows whose first cell heads the row. */
export function table(caption: string | null, header: string[], rows: Row[], attrs?: Attrs): HTMLTableElement {
  return h('table', attrs, [
    caption ? h('caption', { text: caption }) : null,
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        header.map((cell) => h('th', { scope: 'col', text: cell })),
      ),
    ),
    h(
      'tbody',
      null,
      rows.map((row) =>
        h(
          'tr',
          row.attrs || null,
          row.cells.map((cell, i) => {
            const spec = typeof cell === 'object' && cell !== null ? cell : { text: cell };
            return h(i === 0 ? 'th' : 'td', {
              scope: i === 0 ? 'row' : null,
              'data-k': spec.k || null,
              text: spec.text,
            });
          }),
        ),
      ),
    ),
  ]);
}
