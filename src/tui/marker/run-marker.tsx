import { runFullScreen } from '../full-screen.js';
import type { MarkingSession } from '../../marking/marking-session.js';
import { useTerminalSize } from '../use-terminal-size.js';
import { MarkerApp, type MarkerAppProps } from './marker-app.js';

const MIN_WIDTH = 60;
const MIN_HEIGHT = 16;

/** Runs the marker on the terminal until the user quits; every mark is already saved by then. */
export async function runMarker(session: MarkingSession): Promise<{ marked: number; total: number }> {
  let result = session.progress();
  await runFullScreen(<SizedMarker session={session} onDone={(done) => (result = done)} />);
  // Marks given in the last instant before q are written before the process goes.
  await session.flush();
  return result;
}

function SizedMarker(props: Omit<MarkerAppProps, 'width' | 'height'>) {
  const size = useTerminalSize(MIN_WIDTH, MIN_HEIGHT);
  return <MarkerApp {...props} width={size.width} height={size.height} />;
}
