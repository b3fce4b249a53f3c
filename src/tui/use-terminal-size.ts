import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** The terminal's size, at least the given minimum (a smaller terminal shows the layout cut rather than broken), kept current on resize. */
export function useTerminalSize(minWidth: number, minHeight: number): { width: number; height: number } {
  const { stdout } = useStdout();
  const measure = (): { width: number; height: number } => ({
    width: Math.max(minWidth, stdout.columns ?? 80),
    height: Math.max(minHeight, stdout.rows ?? 24),
  });
  const [size, setSize] = useState(measure);
  useEffect(() => {
    const onResize = (): void => setSize(measure());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
