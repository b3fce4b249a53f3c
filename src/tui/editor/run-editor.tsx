import { runFullScreen } from '../full-screen.js';
import type { EditSession } from '../../fixture/constructed/edit-session.js';
import { EditorApp, type EditorResult } from './editor-app.js';

/** Runs the editor on the terminal until the user saves or quits; `openTurn` opens that turn at once. */
export async function runEditor(session: EditSession, outDir: string, openTurn?: number): Promise<EditorResult> {
  let result: EditorResult = {};
  await runFullScreen({ width: 60, height: 20 }, (size) => (
    <EditorApp session={session} outDir={outDir} openTurn={openTurn} {...size} onDone={(done) => (result = done)} />
  ));
  return result;
}
