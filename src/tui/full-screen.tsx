import { render, useStdout } from 'ink';
import { type ReactElement, useEffect, useState } from 'react';

/** A terminal's size in columns and rows. */
export interface ScreenSize {
  width: number;
  height: number;
}

/**
 * Renders an ink app on the alternate screen, as vim and less do: it fills the terminal while it runs and leaves
 * the scrollback as it was. The app is laid out for the terminal's size, at least `min` (a smaller terminal shows
 * the layout cut rather than broken), again on each resize. Ctrl-C is the app's to handle (it may ask before
 * quitting). Resolves when it exits.
 */
export async function runFullScreen(min: ScreenSize, app: (size: ScreenSize) => ReactElement): Promise<void> {
  process.stdout.write('\x1b[?1049h');
  const rendered = render(<Sized min={min} app={app} />, { exitOnCtrlC: false });
  try {
    await rendered.waitUntilExit();
  } finally {
    process.stdout.write('\x1b[?1049l');
  }
}

function Sized({ min, app }: { min: ScreenSize; app: (size: ScreenSize) => ReactElement }) {
  const { stdout } = useStdout();
  const measure = (): ScreenSize => ({
    width: Math.max(min.width, stdout.columns ?? 80),
    height: Math.max(min.height, stdout.rows ?? 24),
  });
  const [size, setSize] = useState(measure);
  useEffect(() => {
    const onResize = (): void => setSize(measure());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return app(size);
}

/** A header within the width: `where` is cut, never `state` (the counts that say what is left to do). */
export function fitHeader(where: string, state: string, width: number): string {
  if (where.length + state.length <= width) return where + state;
  return `${where.slice(0, Math.max(0, width - state.length - 1))}…${state}`;
}
