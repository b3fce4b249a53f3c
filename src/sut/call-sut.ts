import type { LoadedQuestion } from '../question/load-question.js';
import type { SutCaller, SutPlace } from './sut-adapter.js';
import { sutKind } from './sut-kinds.js';

export type { SutCaller } from './sut-adapter.js';

/**
 * Prepares the question's SUT before any rep runs, through its kind's adapter: a command that cannot be found, a
 * module without the export, or an API key variable that is unset is an error naming the question file and the
 * place, not 10 errored reps.
 */
export async function prepareSut(
  question: LoadedQuestion,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<SutCaller> {
  const sut = question.question.sut;
  const adapter = sutKind(sut);
  const place = placeOf(question, projectDir, env);
  adapter.check?.(sut, place);
  return adapter.prepare(sut, place);
}

/**
 * What `turnkit verify` can check of a question's SUT without running any of it: the command's folder and program,
 * the module's file. (Loading the module and the API key variable are checked when a run starts.)
 */
export function checkSutFound(
  question: LoadedQuestion,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>> = {},
): void {
  const sut = question.question.sut;
  sutKind(sut).check?.(sut, placeOf(question, projectDir, env));
}

function placeOf(
  question: LoadedQuestion,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>>,
): SutPlace {
  return { at: (path) => question.at(path), projectDir, env };
}
