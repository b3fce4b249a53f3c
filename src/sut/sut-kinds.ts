import { z } from 'zod';
import type { SutAdapter } from './sut-adapter.js';
import { commandSutAdapter } from './sut-command.js';
import { functionSutAdapter } from './sut-function.js';
import { httpSutAdapter } from './sut-http.js';
import { moduleSutAdapter } from './sut-module.js';

/**
 * The SUT kinds turnkit knows, by `sut.type`: one entry per kind, each kind one file. The question schema, the
 * checks before a run, the secrets kept out of a rep's files, the manifest and the budget all ask this map.
 */
const BUILT_IN = [commandSutAdapter, moduleSutAdapter, httpSutAdapter, functionSutAdapter] as const;

// Each kind's adapter takes its own settings; the map holds them all.
type AnyAdapter = SutAdapter<any>;

const kinds = new Map<string, AnyAdapter>(BUILT_IN.map((adapter) => [adapter.type, adapter]));
// The union schemas are rebuilt when a kind is added (the question schema reads them lazily).
let schemas: { files: z.ZodType; objects: z.ZodType } | undefined;

/**
 * Adds a SUT kind (or replaces the one of its type): questions may then name it, and runs call it, as they do the
 * built-in kinds. The test suite registers a fake kind this way.
 */
export function registerSutKind<C extends { type: string }>(adapter: SutAdapter<C>): void {
  kinds.set(adapter.type, adapter as AnyAdapter);
  schemas = undefined;
}

/** The adapter of a SUT's kind; throws for a type no kind has (the question schema refuses those first). */
export function sutKind(sut: { type: string }): AnyAdapter {
  const adapter = kinds.get(sut.type);
  if (!adapter) throw new Error(`no SUT kind "${sut.type}" is registered`);
  return adapter;
}

/**
 * The schemas of a question's `sut`: `files`, of the kinds a question file may name; `objects`, of every kind (a
 * question given as an object may hold a function).
 */
export function sutKindSchemas(): { files: z.ZodType; objects: z.ZodType } {
  if (schemas) return schemas;
  const all = [...kinds.values()];
  const union = (adapters: AnyAdapter[]): z.ZodType =>
    z.discriminatedUnion(
      'type',
      adapters.map((adapter) => adapter.schema) as unknown as [z.ZodObject, ...z.ZodObject[]],
    );
  schemas = { files: union(all.filter((adapter) => adapter.inFiles)), objects: union(all) };
  return schemas;
}
