import type { RunView } from '../../view-data.js';
import { chartLabel, h, s } from './dom.js';
import { rateText, span, verdictText } from '../../../report/report-text.js';

type Report = RunView['report'];

// A chart's <svg>: an image labelled by its title and described by its text (what a screen reader says of it).
function chartSvg(className: string, width: number, height: number, id: string, title: string, desc: string) {
  const labels = [s('title', { id: `${id}-t`, text: title }), s('desc', { id: `${id}-d`, text: desc })];
  const viewBox = `0 0 ${width} ${height}`;
  return s(
    'svg',
    { role: 'img', viewBox, width, height, 'aria-labelledby': `${id}-t ${id}-d`, class: className },
    labels,
  );
}

/**
 * Per tag an SVG chart of each fixture's rate bar, Wilson interval and the target line, with text labels, a title
 * and a description for screen readers; the table after it holds the same numbers.
 */
export function rateChart(fixtures: Report['fixtures'], target: number, id: string): HTMLElement {
  const rowH = 30;
  const labelW = 230;
  const barW = 330;
  const top = 34;
  const width = labelW + barW + 190;
  const height = top + rowH * fixtures.length + 24;
  const x = (v: number): number => labelW + v * barW;
  const title = `Pass rate per fixture with its Wilson 95% interval; target ${target}`;
  const desc = fixtures
    .map(
      (f) =>
        `${f.fixture}: rate ${rateText(f)}, interval ${span(f.wilson)}, ${f.verdict === 'none' ? 'no verdict' : f.verdict}`,
    )
    .join('; ');
  const svg = chartSvg('chart', width, height, id, title, desc);
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    svg.appendChild(s('line', { x1: x(v), x2: x(v), y1: top - 6, y2: height - 20, class: 'grid' }));
    svg.appendChild(s('text', { x: x(v), y: height - 6, 'text-anchor': 'middle', class: 'tick', text: String(v) }));
  }
  fixtures.forEach((f, i) => {
    const y = top + i * rowH;
    // About 7 px a character at 13 px: 28 fit in the label column.
    svg.appendChild(chartLabel({ x: labelW - 8, y: y + 19, 'text-anchor': 'end', class: 'label' }, f.fixture, 28));
    svg.appendChild(s('rect', { x: x(0), y: y + 6, width: barW, height: 18, class: 'track' }));
    if (f.rate !== null)
      svg.appendChild(
        s('rect', { x: x(0), y: y + 6, width: Math.max(1, f.rate * barW), height: 18, class: `bar ${f.verdict}` }),
      );
    if (f.wilson) {
      const { low, high } = f.wilson;
      svg.appendChild(s('line', { x1: x(low), x2: x(high), y1: y + 15, y2: y + 15, class: 'whisker' }));
      svg.appendChild(s('line', { x1: x(low), x2: x(low), y1: y + 9, y2: y + 21, class: 'whisker' }));
      svg.appendChild(s('line', { x1: x(high), x2: x(high), y1: y + 9, y2: y + 21, class: 'whisker' }));
    }
    const value = `${f.rate === null ? 'no rate' : f.rate.toFixed(2)} ${verdictText(f)}`;
    svg.appendChild(s('text', { x: x(1) + 8, y: y + 19, class: 'value', text: value }));
  });
  svg.appendChild(s('line', { x1: x(target), x2: x(target), y1: top - 10, y2: height - 20, class: 'target' }));
  svg.appendChild(
    s('text', { x: x(target), y: top - 14, 'text-anchor': 'middle', class: 'target-label', text: `target ${target}` }),
  );
  return h('figure', null, [svg, h('figcaption', { text: `${title}. The table below holds the same numbers.` })]);
}

/** A rollout run's chart: per fixture a step line of the share of reps still passing after each turn. */
export function survivalChart(rollout: NonNullable<Report['rollout']>, id: string): HTMLElement {
  const left = 60;
  const plotW = 520;
  const top = 20;
  const plotH = 200;
  const width = left + plotW + 250;
  const height = top + plotH + 40;
  const steps = rollout.fixtures.length > 0 ? rollout.fixtures[0]!.steps : [];
  const n = Math.max(1, steps.length);
  const x = (i: number): number => left + (i / n) * plotW;
  const y = (v: number): number => top + (1 - v) * plotH;
  const title = `Reps still passing after each turn, per fixture (${rollout.turns} turns)`;
  const desc = rollout.fixtures
    .map((f) => `${f.fixture}: ${f.steps.map((st) => `turn ${st.turn} ${st.surviving}/${f.reps}`).join(', ')}`)
    .join('; ');
  const svg = chartSvg('chart survival', width, height, id, title, desc);
  for (const v of [0, 0.5, 1]) {
    svg.appendChild(s('line', { x1: left, x2: left + plotW, y1: y(v), y2: y(v), class: 'grid' }));
    svg.appendChild(s('text', { x: left - 8, y: y(v) + 4, 'text-anchor': 'end', class: 'tick', text: String(v) }));
  }
  steps.forEach((st, i) => {
    const at = { x: (x(i) + x(i + 1)) / 2, y: top + plotH + 18, 'text-anchor': 'middle', class: 'tick' };
    svg.appendChild(s('text', { ...at, text: `t${st.turn}` }));
  });
  rollout.fixtures.forEach((f, k) => {
    const points: string[] = [];
    f.steps.forEach((st, i) => {
      const v = st.share === null ? 0 : st.share;
      points.push(`${x(i)},${y(v)}`, `${x(i + 1)},${y(v)}`);
    });
    svg.appendChild(s('polyline', { points: points.join(' '), class: `survival-line line-${k % 4}`, fill: 'none' }));
    svg.appendChild(
      chartLabel({ x: left + plotW + 8, y: top + 14 + k * 18, class: `label line-${k % 4}` }, f.fixture, 30),
    );
  });
  return h('figure', null, [svg, h('figcaption', { text: `${title}. The table below holds the same numbers.` })]);
}
