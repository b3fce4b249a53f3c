import type { PageData } from '../../view-data.js';
import { h } from './dom.js';
import { renderReport } from './report.js';
import { renderReps } from './reps.js';

/** The page script's entry for a static report file: every run embedded, rendered once. */
export function startStatic(data: Extract<PageData, { mode: 'static' }>): void {
  const root = document.getElementById('app')!;
  for (const run of data.runs) {
    const box = h('div', { class: 'run' });
    root.appendChild(box);
    renderReport(run, box);
    renderReps(run, box);
  }
  document.body.setAttribute('data-ready', 'true');
}
