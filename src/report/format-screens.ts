import { relative } from 'node:path';
import type { Align } from '../util/text-table.js';
import { policyWords, screenCell } from './report-text.js';
import type { ScreenGroup, ScreenReport } from './screen-report.js';

/**
 * The screens section: per tag a table of fixtures with `completed` and one column per screen, each cell the
 * screen's passes over its own denominator (seed 000's "required-action 7/24, answer-term 4/18, completed 30/30"),
 * then the hints: screens that never failed, fixtures where every screen passed every rep.
 */
export function screenLines(
  screens: ScreenReport,
  dir: string,
  table: (rows: string[][], align: Align[]) => string[],
  heading: (text: string) => string,
): string[] {
  const lines = [
    heading('Screens'),
    '',
    `From ${relative(dir, screens.file)}: each screen's passes over its own denominator (${policyWords(screens.errors)}; unscored reps, where a screen does not apply, are never in it).`,
    '',
  ];
  const header = ['fixture', 'completed', ...screens.screens];
  const align: Align[] = ['left', 'right', ...screens.screens.map((): Align => 'right')];
  for (const totals of screens.tags) {
    const rows = [
      header,
      ...screens.fixtures.filter((fixture) => fixture.tag === totals.tag).map(groupRow),
      groupRow(totals),
    ];
    lines.push(`${totals.tag} fixtures:`, '', ...table(rows, align), '');
  }
  const hints = screenHints(screens);
  if (hints.length > 0) lines.push(...hints, '');
  return lines;
}

/** The screens' findings, one line each: screens no rep failed, fixtures where every screen passed every rep. */
export function screenHints(screens: ScreenReport): string[] {
  const hints: string[] = [];
  if (screens.neverFailed.length > 0)
    hints.push(
      `Hint: no rep of the run failed ${screens.neverFailed.join(', ')}: a screen that never fails tells nothing (give the question a known-bad record it must fail).`,
    );
  if (screens.allPassed.length > 0)
    hints.push(
      `Hint: every screen passed every rep of ${screens.allPassed.join(', ')}: such a fixture may be too easy to tell two SUTs apart.`,
    );
  return hints;
}

function groupRow(group: ScreenGroup): string[] {
  return [group.name, `${group.completed.completed}/${group.completed.reps}`, ...group.screens.map(screenCell)];
}
