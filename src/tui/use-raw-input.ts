import { useStdin } from 'ink';
import { useEffect, useRef } from 'react';

/**
 * The last chunk read from the terminal, as bytes: ink's useInput names Backspace (DEL) and the Delete key (ESC [ 3 ~)
 * alike, so a screen that erases forward on Delete reads the chunk itself. Call it before useInput: listeners run in
 * the order they were added, so the chunk is here when useInput's handler runs.
 */
export function useRawInput(): { readonly current: string | undefined } {
  const { internal_eventEmitter: emitter } = useStdin();
  const last = useRef<string | undefined>(undefined);
  useEffect(() => {
    const record = (data: string | Buffer): void => {
      last.current = String(data);
    };
    emitter.on('input', record);
    return () => {
      emitter.removeListener('input', record);
    };
  }, [emitter]);
  return last;
}
