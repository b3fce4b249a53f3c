import type { ChangeConflict } from '../../fixture/constructed/apply-changes.js';
import type { KeepChoice } from '../../fixture/constructed/resolve-conflicts.js';
import { runFullScreen } from '../full-screen.js';
import { useTerminalSize } from '../use-terminal-size.js';
import { ResolverApp, type ResolverAppProps } from './resolver-app.js';

const MIN_WIDTH = 60;
const MIN_HEIGHT = 16;

/** What the resolver is given: the files as shown, the conflicts, and how to write the rebased file. */
export interface ResolverInput<T> {
  file: string;
  base: string;
  conflicts: readonly ChangeConflict[];
  save: (choices: KeepChoice[]) => Promise<T>;
}

/** Runs the conflict resolver on the terminal; resolves with the save's result, or undefined when the author quit. */
export async function runResolver<T>(input: ResolverInput<T>): Promise<T | undefined> {
  let result: T | undefined;
  await runFullScreen(
    <SizedResolver
      file={input.file}
      base={input.base}
      conflicts={input.conflicts}
      onSave={input.save}
      onDone={(done: T | undefined) => {
        result = done;
      }}
    />,
  );
  return result;
}

function SizedResolver<T>(props: Omit<ResolverAppProps<T>, 'width' | 'height'>) {
  const size = useTerminalSize(MIN_WIDTH, MIN_HEIGHT);
  return <ResolverApp {...props} width={size.width} height={size.height} />;
}
