import { render } from 'ink';
import type { ReactElement } from 'react';

/**
 * Renders an ink app on the alternate screen, as vim and less do: it fills the terminal while it runs and leaves
 * the scrollback as it was. Ctrl-C is the app's to handle (it may ask before quitting). Resolves when it exits.
 */
export async function runFullScreen(element: ReactElement): Promise<void> {
  process.stdout.write('\x1b[?1049h');
  const app = render(element, { exitOnCtrlC: false });
  try {
    await app.waitUntilExit();
  } finally {
    process.stdout.write('\x1b[?1049l');
  }
}
