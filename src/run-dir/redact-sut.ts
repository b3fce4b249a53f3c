import type { SutConfig } from '../question/question-format.js';
import { sutKind } from '../sut/sut-kinds.js';

// Apart from manifest.ts: the SUT kinds (their adapters, pg, the model clients) are the writer's, and every reader
// of a manifest (report, show, view) would otherwise load them all to read one JSON file.

/** The SUT config as the manifest records it, as its kind describes it: no secret, no function. */
export function redactSut(sut: SutConfig): Record<string, unknown> {
  return sutKind(sut).describe(sut);
}
