import type { MarkingSession } from '../../marking/marking-session.js';
import { TurnkitError } from '../../errors.js';
import { repContent } from '../build-run-view.js';
import { markdownDoc, type MarkdownNode } from '../markdown-doc.js';
import type { MarkerPage } from '../view-data.js';
import { blindCaseFiles, blindRep } from './blind-reps.js';

/** The most reps one page of the marker holds: a rollout rep can be large, and a page is what the marker waits for. */
const MARKER_PAGE_MAX = 1000;

/**
 * The marker's reps a page at a time, built from one marking session's records (read once as it opened, and kept
 * while the run's files are unchanged): a 10,000-rep run's marker shows its first rep from one small page instead of
 * the run's whole page data. Blind, a page holds what the whole blind payload holds of those positions and no more:
 * the masked texts and the index of the case file, whose rendered Markdown comes with the first page that names it.
 */
export class MarkerPages {
  private blind: ReturnType<typeof blindCaseFiles> | undefined;
  private readonly docs = new Map<number, MarkdownNode[]>();
  private fixtureIndex: Map<string, number> | undefined;

  constructor(private readonly session: MarkingSession) {}

  /** Positions `[from, to)` of the marking order (`to` past the end stops at the end; `from` past it: no reps). */
  page(from: number, to: number): MarkerPage {
    checkPage(from, to);
    const positions = this.session.reps.slice(from, to);
    if (this.session.blind) {
      this.blind ??= blindCaseFiles(this.session);
      const { caseFiles, caseFileOf } = this.blind;
      const blindReps = positions.map((rep, i) => blindRep(this.session, rep, caseFileOf[from + i]!));
      const blindCaseFileDocs: Record<number, MarkdownNode[]> = {};
      for (const rep of blindReps) blindCaseFileDocs[rep.caseFile] = this.doc(rep.caseFile, caseFiles[rep.caseFile]!);
      return { from, blindReps, blindCaseFileDocs };
    }
    this.fixtureIndex ??= new Map(this.session.manifest.fixtures.map((fixture, i) => [fixture.name, i]));
    const fixtures: NonNullable<MarkerPage['fixtures']> = {};
    const reps = positions.map((rep) => {
      const f = this.fixtureIndex!.get(rep.fixture)!;
      fixtures[f] ??= { name: rep.fixture, caseFileDoc: this.doc(f, rep.caseFile) };
      return repContent(f, rep.rep, rep.record);
    });
    return { from, reps, fixtures };
  }

  // A case file's Markdown is rendered once per session: every rep of its fixture shares it.
  private doc(index: number, text: string): MarkdownNode[] {
    let doc = this.docs.get(index);
    if (!doc) {
      doc = markdownDoc(text);
      this.docs.set(index, doc);
    }
    return doc;
  }
}

function checkPage(from: number, to: number): void {
  if (to < from) throw new TurnkitError('BAD_INPUT', `bad page of reps: to (${to}) is before from (${from})`);
  if (to - from > MARKER_PAGE_MAX)
    throw new TurnkitError('BAD_INPUT', `bad page of reps: at most ${MARKER_PAGE_MAX} reps a page`);
}
