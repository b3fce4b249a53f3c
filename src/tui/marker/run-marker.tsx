import { render } from 'ink';
import type { MarkingSession } from '../../marks/marking-session.js';
import { useTerminalSize } from '../use-terminal-size.js';
import { MarkerApp, type MarkerAppProps } from './marker-app.js';

const MIN_WIDTH = 60;
const MIN_HEIGHT = 16;

/** Runs the marker on the terminal until the user quits; every mark is already saved by then. */
export async function runMarker(session: MarkingSession): Promise<{ marked: number; total: number }> {
  let result = session.progress();
  // The alternate screen, as less does: the marker fills the terminal and leaves the scrollback as it was.
  process.stdout.write('\x1b[?1049h');
  const app = render(<SizedMarker session={session} onDone={(done) => (result = done)} />, { exitOnCtrlC: false });
  try {
    await app.waitUntilExit();
  } finally {
    process.stdout.write('\x1b[?1049l');
  }
  return result;
}

function SizedMarker(props: Omit<MarkerAppProps, 'width' | 'height'>) {
  const size = useTerminalSize(MIN_WIDTH, MIN_HEIGHT);
  return <MarkerApp {...props} width={size.width} height={size.height} />;
}
