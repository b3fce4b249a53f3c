import type { FixtureView } from '../../view-data.js';
import { addAll, h } from './dom.js';

type Segments = Exclude<FixtureView['diff'], string | null>['changes'][number]['segments'];

// Removed text is struck through and wrapped in [-...-], added text underlined in {+...+}: it reads without color.
function diffSegments(segments: Segments): HTMLElement {
  return h(
    'p',
    { class: 'diff' },
    segments.map((seg) => {
      if (seg.kind === 'removed') return h('del', { text: `[-${seg.text}-]` });
      if (seg.kind === 'added') return h('ins', { text: `{+${seg.text}+}` });
      return document.createTextNode(seg.text);
    }),
  );
}

/** A constructed fixture's recorded diff, or why it is not shown. */
export function renderDiff(f: FixtureView): HTMLElement {
  const box = h('div', { class: 'constructed', 'data-diff': f.name }, [h('h3', { text: f.name })]);
  if (f.diff === null) return box;
  if (typeof f.diff === 'string') return addAll(box, h('p', { text: f.diff }));
  return addAll(box, [
    h('p', { text: `Turn ${f.diff.turn} of ${f.diff.base} changed: ${f.diff.why}` }),
    ...f.diff.changes.map((c) =>
      h('div', { class: 'change' }, [h('p', { class: 'path', text: `~ ${c.path}` }), diffSegments(c.segments)]),
    ),
  ]);
}
