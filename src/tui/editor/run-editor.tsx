import { render } from 'ink';
import type { EditSession } from '../../construct/edit-session.js';
import { EditorApp, type EditorResult } from './editor-app.js';

/** Runs the editor on the terminal until the user saves or quits. */
export async function runEditor(session: EditSession, outDir: string): Promise<EditorResult> {
  let result: EditorResult = {};
  const width = Math.max(60, process.stdout.columns ?? 80);
  const height = Math.max(20, process.stdout.rows ?? 24);
  // The alternate screen, as vim and less use: the editor fills the terminal and leaves the scrollback as it was.
  process.stdout.write('\x1b[?1049h');
  const app = render(<EditorApp session={session} outDir={outDir} width={width} height={height} onDone={(done) => (result = done)} />, {
    exitOnCtrlC: false,
  });
  try {
    await app.waitUntilExit();
  } finally {
    process.stdout.write('\x1b[?1049l');
  }
  return result;
}
