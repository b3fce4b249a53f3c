import { existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { z } from 'zod';
import { TurnkitError } from '../errors.js';
import type { SutAdapter } from './sut-adapter.js';
import { sutMaxOutput, sutTimeout } from './sut-fields.js';
import type { SutRequest, SutTools } from './sut-request.js';
/** A module SUT in a question: a JS/TS file's exported function, called per rep in a worker thread. */
export const moduleSutSchema = z
  .object({
    type: z.literal('module'),
    /** A .js/.mjs/.ts file exporting `(request, { db, databaseUrl }) => response`. */
    path: z.string().min(1),
    /** The export to call (default: the default export). */
    export: z.string().min(1).default('default'),
    timeout: sutTimeout,
    /** Bytes of the response (and of what the module logs, kept as its output's end); a longer answer is an error. */
    maxOutput: sutMaxOutput,
  })
  .strict();

/** A module SUT's settings (its path resolved, once prepared). */
export type ModuleSut = z.output<typeof moduleSutSchema>;

/** The module kind: `{ type: 'module', path, export, timeout, maxOutput }`. */
export const moduleSutAdapter: SutAdapter<ModuleSut> = {
  type: 'module',
  schema: moduleSutSchema,
  inFiles: true,
  check(sut, place) {
    if (!existsSync(resolvePath(place.projectDir, sut.path)))
      throw new TurnkitError('NOT_FOUND', `${place.at(['sut', 'path'])}: ${sut.path}: no such file`);
  },
  async prepare(sut, place) {
    const resolved = { ...sut, path: resolvePath(place.projectDir, sut.path) };
    // The worker's code loads when a module SUT is opened: a run of another kind never loads it.
    const { callModuleSut, checkModuleSut } = await import('./sut-module-worker.js');
    await checkModuleSut(resolved).catch((error: Error) => {
      throw new TurnkitError('BAD_INPUT', `${place.at(['sut', 'export'])}: ${error.message.split('\n')[0]}`);
    });
    return (context) => callModuleSut(resolved, context);
  },
  describe: (sut) => ({ ...sut }),
  label: (sut) => `module SUT ${sut.path}`,
  namedFiles: (sut) => ({ cwd: '.', words: [sut.path] }),
};

/** The function a module SUT exports (or a library caller's function SUT). */
export type ModuleSutFunction = (request: SutRequest, tools: SutTools) => unknown;
