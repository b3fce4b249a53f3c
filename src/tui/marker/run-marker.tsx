import { runFullScreen } from '../full-screen.js';
import type { MarkingSession } from '../../marking/marking-session.js';
import { MarkerApp } from './marker-app.js';

/** Runs the marker on the terminal until the user quits; every mark is already saved by then. */
export async function runMarker(session: MarkingSession): Promise<{ marked: number; total: number }> {
  let result = session.progress();
  await runFullScreen({ width: 60, height: 16 }, (size) => (
    <MarkerApp session={session} {...size} onDone={(done) => (result = done)} />
  ));
  // Marks given in the last instant before q are written before the process goes.
  await session.flush();
  return result;
}
