import { existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { TurnkitError } from '../errors.js';
import type { LoadedQuestion } from '../pipeline/load-question.js';
import { commandLine, runCommandSut } from './sut-command.js';
import { httpSutCaller } from './sut-http.js';
import { callModuleSut, checkModuleSut, runModuleSut } from './sut-module.js';
import type { SutContext, SutOutcome } from './sut-request.js';

/** Calls the SUT for one rep, whichever kind it is. */
export type SutCaller = (context: SutContext) => Promise<SutOutcome>;

/**
 * Prepares the question's SUT before any rep runs: a command that cannot be found, a module without the export, or
 * an API key variable that is unset is an error naming the question file and the place, not 10 errored reps.
 */
export async function prepareSut(
  question: LoadedQuestion,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<SutCaller> {
  checkSutFound(question, projectDir, env);
  const sut = question.question.sut;
  switch (sut.type) {
    case 'command': {
      const resolved = { ...sut, cwd: resolve(projectDir, sut.cwd ?? '.') };
      return (context) => runCommandSut(resolved, context);
    }
    case 'module': {
      const resolved = { ...sut, path: resolve(projectDir, sut.path) };
      await checkModuleSut(resolved).catch((error: Error) => {
        throw new TurnkitError('BAD_INPUT', `${question.at(['sut', 'export'])}: ${error.message.split('\n')[0]}`);
      });
      return (context) => callModuleSut(resolved, context);
    }
    case 'http': {
      if (sut.apiKeyEnv && !env[sut.apiKeyEnv])
        throw new TurnkitError(
          'BAD_INPUT',
          `${question.at(['sut', 'apiKeyEnv'])}: the environment variable ${sut.apiKeyEnv} is not set`,
        );
      return httpSutCaller(sut, { apiKey: sut.apiKeyEnv ? env[sut.apiKeyEnv] : undefined });
    }
    case 'function': {
      const { fn } = sut;
      return (context) => runModuleSut(fn, sut, context);
    }
  }
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
  if (sut.type === 'command') {
    const cwd = resolve(projectDir, sut.cwd ?? '.');
    if (!existsSync(cwd))
      throw new TurnkitError('NOT_FOUND', `${question.at(['sut', 'cwd'])}: ${sut.cwd}: no such folder`);
    // `${NAME}` of a variable that is not set would become an empty string: a SUT without its key, silently.
    for (const [name, value] of Object.entries(sut.env ?? {})) {
      const unset = [...value.matchAll(/\$\{(\w+)\}/g)].map((match) => match[1]!).find((v) => env[v] === undefined);
      if (unset !== undefined)
        throw new TurnkitError(
          'BAD_INPUT',
          `${question.at(['sut', 'env', name])}: \${${unset}} is not set in turnkit's environment; set it, or write the value itself`,
        );
    }
    const program = commandLine(sut)[0]!;
    if (!findProgram(program, cwd, env.PATH))
      throw new TurnkitError('BAD_INPUT', `${question.at(['sut', 'command'])}: ${program}: command not found`);
  } else if (sut.type === 'module') {
    if (!existsSync(resolve(projectDir, sut.path)))
      throw new TurnkitError('NOT_FOUND', `${question.at(['sut', 'path'])}: ${sut.path}: no such file`);
  }
}

// A program with a slash is a path (relative to the SUT's folder); otherwise it is looked up on PATH, as spawn does.
function findProgram(program: string, cwd: string, path: string | undefined): boolean {
  if (program.includes('/') || isAbsolute(program)) return isFile(resolve(cwd, program));
  return (path ?? '').split(delimiter).some((dir) => dir !== '' && isFile(join(dir, program)));
}

// A folder of that name is not a program (spawning it fails every rep with EACCES).
function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}
