import { z } from 'zod';
import type { SutAdapter } from './sut-adapter.js';
import { sutMaxOutput, sutTimeout } from './sut-fields.js';
import type { SutFunction } from './sut-request.js';

/** A function SUT: a function in this process, which only a question given as an object can hold (a file cannot). */
export const functionSutSchema = z
  .object({
    type: z.literal('function'),
    fn: z.custom<SutFunction>((value) => typeof value === 'function', 'expected a function'),
    timeout: sutTimeout,
    /** Bytes of the response; a longer answer is an error. */
    maxOutput: sutMaxOutput,
  })
  .strict();

/** A function SUT's settings. */
export type FunctionSutConfig = z.output<typeof functionSutSchema>;

/** The function kind: `{ type: 'function', fn, timeout, maxOutput }` (or a bare function, read as that). */
export const functionSutAdapter: SutAdapter<FunctionSutConfig> = {
  type: 'function',
  schema: functionSutSchema,
  inFiles: false,
  async prepare(sut) {
    const { runModuleSut } = await import('./sut-module-worker.js');
    return (context) => runModuleSut(sut.fn, sut, context);
  },
  // A function is code of the caller's process: the manifest says which one by name, as JSON can hold.
  describe: (sut) => ({ type: 'function', name: sut.fn.name, timeout: sut.timeout }),
  label: (sut) => `function SUT${sut.fn.name ? ` "${sut.fn.name}"` : ''}`,
};
