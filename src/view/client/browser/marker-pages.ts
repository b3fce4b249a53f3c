import { api, errorText } from './api.js';
import { MARKER_PAGE, type MarkerPage, type MarkerPageReply } from '../../view-data.js';
import { total, type LoadedReps, type Marker } from './marker-context.js';
import { VIEW } from './viewer-state.js';

/*
 * The marker's reps a page at a time: the page holding the shown rep, and the next (or the one before) once the
 * marker is near a page's end, so that moving on rarely waits; a large run's marker shows its first rep from one
 * small page instead of every rep of the run.
 */

// How near a page's edge the marker asks for the page beyond it.
const AHEAD = 10;

/** The first position of the page holding `pos`. */
export function pageStart(pos: number): number {
  return pos - (pos % MARKER_PAGE);
}

/** Keeps a page of reps (the summary's own first page, or one fetched): it is not asked for again. */
export function takePage(loaded: LoadedReps, page: MarkerPage): void {
  page.reps?.forEach((rep, i) => {
    loaded.reps[page.from + i] = rep;
  });
  page.blindReps?.forEach((rep, i) => {
    loaded.blindReps[page.from + i] = rep;
  });
  Object.assign(loaded.fixtures, page.fixtures);
  Object.assign(loaded.blindCaseFileDocs, page.blindCaseFileDocs);
  if (!loaded.asked.has(page.from)) loaded.asked.set(page.from, Promise.resolve());
}

/** Asks for the page holding `pos` and, near its edge, the page beyond; each is asked for once. */
export function wantReps(mk: Marker, pos: number): void {
  const start = pageStart(pos);
  void fetchPage(mk, start);
  if (pos - start >= MARKER_PAGE - AHEAD) void fetchPage(mk, start + MARKER_PAGE);
  if (pos - start < AHEAD && start > 0) void fetchPage(mk, start - MARKER_PAGE);
}

/**
 * The page of positions `[from, from + MARKER_PAGE)`, fetched once under the summary in hand and drawn once it is
 * here; a page read at another version of the run is not shown (the run changed: the summary is read again).
 */
export function fetchPage(mk: Marker, from: number): Promise<void> {
  const { st } = mk;
  const loaded = st.loaded;
  if (from < 0 || from >= total(mk)) return Promise.resolve();
  const asked = loaded.asked.get(from);
  if (asked) return asked;
  const version = st.body!.version;
  const fetched = api<MarkerPageReply>(VIEW.data, `/api/marker-reps?run=${st.id}&from=${from}&to=${from + MARKER_PAGE}`)
    .then(({ page, version: now }) => {
      // Fetched under a summary since replaced: the new one asks for its own pages.
      if (st.loaded !== loaded) return;
      if (now !== version) {
        if (st.pending === 0) mk.reload();
        return;
      }
      takePage(loaded, page);
      mk.draw();
    })
    .catch((error: unknown) => {
      // Asked once: a page that failed is not asked for again until the summary is read again.
      st.message = `reps not fetched: ${errorText(error)} (reload the page)`;
      mk.draw();
    });
  loaded.asked.set(from, fetched);
  return fetched;
}
