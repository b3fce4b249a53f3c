import type { ChangeConflict } from '../../fixture/constructed/apply-changes.js';
import type { KeepChoice } from '../../fixture/constructed/resolve-conflicts.js';
import { runFullScreen } from '../full-screen.js';
import { ResolverApp } from './resolver-app.js';

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
  await runFullScreen({ width: 60, height: 16 }, (size) => (
    <ResolverApp
      file={input.file}
      base={input.base}
      conflicts={input.conflicts}
      onSave={input.save}
      onDone={(done: T | undefined) => (result = done)}
      {...size}
    />
  ));
  return result;
}
