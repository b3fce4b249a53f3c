import { runFullScreen } from '../full-screen.js';
import { useTerminalSize } from '../use-terminal-size.js';
import type { EditSession } from '../../fixture/constructed/edit-session.js';
import { EditorApp, type EditorAppProps, type EditorResult } from './editor-app.js';

/** The smallest screen the layout is drawn for; a smaller terminal shows it cut rather than broken. */
const MIN_WIDTH = 60;
const MIN_HEIGHT = 20;

/** Runs the editor on the terminal until the user saves or quits; `openTurn` opens that turn at once. */
export async function runEditor(session: EditSession, outDir: string, openTurn?: number): Promise<EditorResult> {
  let result: EditorResult = {};
  await runFullScreen(<SizedEditor session={session} outDir={outDir} openTurn={openTurn} onDone={(done) => (result = done)} />);
  return result;
}

/** The editor laid out for the terminal's size, again whenever the terminal is resized. */
function SizedEditor(props: Omit<EditorAppProps, 'width' | 'height'>) {
  const size = useTerminalSize(MIN_WIDTH, MIN_HEIGHT);
  return <EditorApp {...props} width={size.width} height={size.height} />;
}
