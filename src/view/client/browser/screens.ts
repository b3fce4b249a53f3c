import { policyWords, screenCell } from '../../../report/report-text.js';
import type { RunView } from '../../view-data.js';
import { h, section } from './dom.js';
import { type Row, table } from './table.js';

type Screens = NonNullable<RunView['report']['screens']>;
type Group = Screens['fixtures'][number];

function groupRow(g: Group, attrs: Row['attrs']): Row {
  return {
    attrs,
    cells: [
      g.name,
      { k: 'completed', text: `${g.completed.completed}/${g.completed.reps}` },
      ...g.screens.map((c) => ({ k: `screen-${c.screen}`, text: screenCell(c) })),
    ],
  };
}

/** The screens section: per tag a table of fixtures, each screen with its own denominator, then the hints. */
export function renderScreens(s: Screens): HTMLElement {
  const policy = policyWords(s.errors);
  const header = ['fixture', 'completed', ...s.screens];
  const tables = s.tags.map((t) => {
    const rows = s.fixtures.filter((f) => f.tag === t.tag).map((f) => groupRow(f, { 'data-screen-fixture': f.name }));
    rows.push(groupRow(t, { 'data-screen-total': t.tag }));
    return table(`${t.tag} fixtures: each screen's passes over its own denominator (${policy})`, header, rows, {
      class: 'screens',
    });
  });
  const hints = [
    ...(s.neverFailed.length > 0
      ? [`No rep of the run failed ${s.neverFailed.join(', ')}: a screen that never fails tells nothing.`]
      : []),
    ...(s.allPassed.length > 0
      ? [`Every screen passed every rep of ${s.allPassed.join(', ')}: perhaps too easy to tell two SUTs apart.`]
      : []),
  ];
  return section({ id: 'screens' }, 'Screens', [
    h('p', { text: `Unscored reps (a screen that does not apply) are never in a screen's denominator; ${policy}.` }),
    ...tables,
    hints.length > 0
      ? h(
          'ul',
          { class: 'hints' },
          hints.map((text) => h('li', { text })),
        )
      : null,
  ]);
}
