import type { Manifest } from '../run-dir/manifest.js';
import type { RepKey } from '../run-dir/run-state.js';
import { maskNames } from './mask-names.js';

/** A rep's neutral name in a blind re-mark, and the rep it stands for (recorded beside the blind marks file). */
export interface BlindLabel {
  /** `case 2 · item 5 of 20`: what the grader sees instead of the fixture and rep. */
  label: string;
  /** The case: fixtures that share a captured base share it, so base and constructed arm read alike. */
  case: number;
  /** The position in the blind order, from 1. */
  item: number;
  fixture: string;
  rep: number;
}

/**
 * Neutral labels for reps in blind order. Cases are numbered by first appearance in that order, so the number says
 * nothing about which fixture (or which arm of a base against its constructed fixture) a rep belongs to.
 */
export function blindLabels(manifest: Manifest, order: readonly RepKey[]): BlindLabel[] {
  // Fixtures that share the captured fixture at the bottom of their chain of bases are one case.
  const groupOf = new Map(
    manifest.fixtures.map((fixture) => [fixture.name, (fixture.bases?.at(-1) ?? fixture.file).sha256]),
  );
  const cases = new Map<string, number>();
  return order.map((key, index) => {
    const group = groupOf.get(key.fixture) ?? key.fixture;
    if (!cases.has(group)) cases.set(group, cases.size + 1);
    const number = cases.get(group)!;
    return {
      label: `case ${number} · item ${index + 1} of ${order.length}`,
      case: number,
      item: index + 1,
      fixture: key.fixture,
      rep: key.rep,
    };
  });
}

/**
 * Replaces every name a grader could tell a fixture by (its name, its file, its bases' names and files) with its
 * case's neutral name, in any case and encoding (see maskNames).
 */
export function blindScrubber(manifest: Manifest, labels: readonly BlindLabel[]): (text: string) => string {
  const caseOfFixture = new Map(labels.map((entry) => [entry.fixture, entry.case]));
  const names = new Map<string, string>();
  for (const fixture of manifest.fixtures) {
    const number = caseOfFixture.get(fixture.name);
    if (number === undefined) continue;
    const neutral = `case ${number}`;
    for (const file of [fixture.file, ...(fixture.bases ?? [])]) {
      names.set(file.path, neutral);
      const base = file.path.slice(file.path.lastIndexOf('/') + 1).replace(/\.json$/, '');
      names.set(base, neutral);
    }
    names.set(fixture.name, neutral);
  }
  return maskNames(names);
}
