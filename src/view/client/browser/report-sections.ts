import type { AgreementView, RunView } from '../../view-data.js';
import { survivalChart } from './charts.js';
import { h, section } from './dom.js';
import { type Cell, table } from './table.js';
import { pValue, rateText, signed } from '../../../report/report-text.js';

/*
 * The report's sections past the per-tag tables: a rollout's survival, agreements between graders with their
 * confusion matrices and disagreements, and a comparison with another run.
 */

type Rollout = NonNullable<RunView['report']['rollout']>;

// The turns a person marked in the report's marks file (the report counts them): they fail a turn as checks do.
function turnsMarkedLine(rollout: Rollout, run: RunView): HTMLElement | null {
  const marked = rollout.turnMarks ? rollout.turnMarks.marked : 0;
  if (marked === 0 || !rollout.turnMarks) return null;
  const text = `${marked} turn${marked === 1 ? '' : 's'} marked by a person in ${run.report.marksFile} (${rollout.turnMarks.failed} fail), counted with the checks.`;
  return h('p', { id: 'survival-turn-marks', text });
}

/** A rollout run's survival: the chart, its table, and each constructed fixture against its base per turn. */
export function renderSurvival(rollout: Rollout, run: RunView): HTMLElement {
  const turns = rollout.fixtures.length > 0 ? rollout.fixtures[0]!.steps.map((st) => `t${st.turn}`) : [];
  const box = section({ id: 'survival' }, `Survival over ${rollout.turns} turns (reps with no failing turn so far)`, [
    survivalChart(rollout, 'chart-survival'),
    turnsMarkedLine(rollout, run),
    table(
      null,
      ['fixture', ...turns, 'median first fail'],
      rollout.fixtures.map((f) => ({
        attrs: { 'data-survival': f.fixture },
        cells: [
          f.fixture,
          ...f.steps.map((st): Cell => ({ k: `t${st.turn}`, text: `${st.surviving}/${f.reps}` })),
          {
            k: 'median',
            text: f.medianFirstFailingTurn === null ? 'none failed' : `turn ${f.medianFirstFailingTurn}`,
          },
        ],
      })),
    ),
  ]);
  if (rollout.pairs.length > 0) {
    box.appendChild(h('h3', { text: 'Does the fix hold? Constructed against base, per turn' }));
    box.appendChild(
      table(
        null,
        ['constructed', 'base', '', ...turns],
        rollout.pairs.map((p) => ({
          attrs: { 'data-survival-pair': p.constructed },
          cells: [
            p.constructed,
            p.base,
            'delta / Fisher p',
            ...p.steps.map((st): Cell => ({ k: `t${st.turn}`, text: `${signed(st.delta, '±')} / ${pValue(st.p)}` })),
          ],
        })),
      ),
    );
  }
  return box;
}

/** The run's other marks files against the report's: agreement, kappa, confusion matrix, disagreements. */
export function renderAgreements(list: AgreementView[]): HTMLElement {
  const box = section({ id: 'agreements' }, 'Agreement between graders', [
    table(
      null,
      ['marks file', 'against', 'agreement', 'kappa', ''],
      list.map((a) => ({
        attrs: { 'data-agreement': a.file },
        cells: [
          a.file,
          a.against,
          {
            k: 'ratio',
            text:
              a.matched === 0
                ? 'no pass/fail in common'
                : `${a.agreed}/${a.matched} = ${(a.agreed / a.matched).toFixed(3)}`,
          },
          { k: 'kappa', text: a.kappa === null ? 'null' : a.kappa.toFixed(3) },
          a.self ? 'self-agreement: the ceiling for any judge' : '',
        ],
      })),
    ),
  ]);
  for (const a of list) {
    const c = a.confusion;
    box.appendChild(h('h3', { text: `${a.file} against ${a.against}` }));
    box.appendChild(
      table(
        `Confusion matrix: rows ${a.against}, columns ${a.file}`,
        ['', `${a.file} pass`, `${a.file} fail`],
        [
          { cells: [`${a.against} pass`, { k: 'pp', text: c.passPass }, { k: 'pf', text: c.passFail }] },
          { cells: [`${a.against} fail`, { k: 'fp', text: c.failPass }, { k: 'ff', text: c.failFail }] },
        ],
        { class: 'confusion', 'data-confusion': a.file },
      ),
    );
    if (a.disagreements.length > 0) {
      box.appendChild(
        table(
          `Disagreements (${a.disagreements.length})`,
          ['rep', a.against, 'note', a.file, 'note'],
          a.disagreements.map((d) => ({ cells: [`${d.fixture} rep ${d.rep}`, d.a, d.noteA, d.b, d.noteB] })),
          { class: 'disagreements' },
        ),
      );
    }
  }
  return box;
}

/**
 * This run against another: per fixture both rates, the delta and Fisher's p, and what is only in one; for rollouts
 * of a simulated player against recorded inputs, survival per turn on each side and how the inputs read.
 */
export function renderComparison(
  c: NonNullable<RunView['comparison']>,
  playersText: RunView['playersText'] = null,
): HTMLElement {
  const box = section({ id: 'comparison' }, `Against ${c.otherDir}`, [
    table(
      null,
      ['fixture', 'tag', 'here', 'there', 'delta', 'Fisher p'],
      c.fixtures.map((f) => ({
        attrs: { 'data-compare': f.fixture },
        cells: [
          f.fixture + (f.fixtureChanged ? ' (fixture changed)' : ''),
          f.tag || '',
          rateText(f.here),
          rateText(f.there),
          { k: 'delta', text: signed(f.delta, '±') },
          { k: 'p', text: pValue(f.p) },
        ],
      })),
    ),
  ]);
  if (c.onlyHere.length > 0) box.appendChild(h('p', { text: `Only in this run: ${c.onlyHere.join(', ')}` }));
  if (c.onlyThere.length > 0) box.appendChild(h('p', { text: `Only in the other run: ${c.onlyThere.join(', ')}` }));
  for (const w of c.warnings) box.appendChild(h('p', { class: 'warning', text: `warning: ${w}` }));
  if (c.players && playersText) box.appendChild(renderPlayers(c.players, playersText));
  return box;
}

function renderPlayers(
  players: NonNullable<NonNullable<RunView['comparison']>['players']>,
  text: NonNullable<RunView['playersText']>,
): HTMLElement {
  const part = h('section', { class: 'players' }, [
    h('h3', { text: text.title }),
    table(
      null,
      ['turn', 'simulated', 'recorded', 'difference', 'CMH p'],
      players.steps.map((step) => ({
        attrs: { 'data-turn': String(step.turn) },
        cells: [
          String(step.turn),
          { k: 'simulated', text: `${step.simulated.surviving}/${step.simulated.reps}` },
          { k: 'recorded', text: `${step.recorded.surviving}/${step.recorded.reps}` },
          { k: 'difference', text: signed(step.difference, '±') },
          { k: 'p', text: pValue(step.p) },
        ],
      })),
      { class: 'players-steps' },
    ),
    h('p', { text: `Inputs, simulated: ${text.simulated}` }),
    h('p', { text: `Inputs, recorded: ${text.recorded}` }),
  ]);
  if (players.flag) part.appendChild(h('p', { class: 'warning flag', text: `flag: ${players.flag}` }));
  return part;
}
