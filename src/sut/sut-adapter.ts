import type { z } from 'zod';
import type { SutContext, SutOutcome } from './sut-request.js';

/** Calls the SUT for one rep, whichever kind it is. */
export type SutCaller = (context: SutContext) => Promise<SutOutcome>;

/** Where a question's SUT is prepared or checked: the places of its settings, the project, turnkit's environment. */
export interface SutPlace {
  /** The place of a setting in the question (`q.yaml:7:10: $.sut.command`), for one-line errors. */
  at(path: readonly PropertyKey[]): string;
  /** The folder a SUT's relative paths are relative to. */
  projectDir: string;
  /** turnkit's environment (the command line passes the process's; the library reads none itself). */
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * One kind of SUT (command, module, http, function, ...): everything the run path needs to know of it, so that a new
 * kind is one file holding its schema and its adapter, plus its entry in `sut-kinds.ts`. The run path never branches
 * on a SUT's type: it asks the kind's adapter.
 */
export interface SutAdapter<C extends { type: string } = { type: string }> {
  /** The value of `sut.type` that names the kind. */
  readonly type: C['type'];
  /** The kind's settings in a question, a zod object whose `type` is the literal above. */
  readonly schema: z.ZodType<C, unknown>;
  /** Whether a question file may name the kind; false for what only a question object can hold (a function). */
  readonly inFiles: boolean;
  /**
   * What `turnkit verify` can check without running anything (a program on PATH, a file that exists); throws a
   * TurnkitError naming the setting's place.
   */
  check?(sut: C, place: SutPlace): void;
  /** Makes the caller a run's reps use, after `check`: loads what must load, reads keys; throws like `check`. */
  prepare(sut: C, place: SutPlace): SutCaller | Promise<SutCaller>;
  /**
   * What the SUT can see besides turnkit's environment: `variables` it is given (judged by their names, as turnkit's
   * own are) and `values` that are secrets whatever their name (an API key, a URL's credentials).
   */
  secrets?(sut: C, env: Readonly<Record<string, string | undefined>>): SutSecrets;
  /** The settings as a run's manifest records them: no secret, no function, JSON only. */
  describe(sut: C): Record<string, unknown>;
  /** The SUT as messages name it (`command SUT "node sut.js"`). */
  label(sut: C): string;
  /**
   * The model whose price in the config's `prices` counts the SUT's calls, for a kind that reports tokens and never
   * a cost (http); absent for kinds that report their own cost.
   */
  pricedModel?(sut: C): string;
  /**
   * The words of the settings that may name files the SUT runs or reads (a script, a prompt file), and the folder
   * (relative to the project) they are relative to: those that are files go into the manifest with their sha256, and
   * `--resume` refuses when one changed. Absent for kinds that name no file.
   */
  namedFiles?(sut: C): { cwd: string; words: string[] };
}

/** What a SUT can see that must not reach a rep's files (see `SutAdapter.secrets`). */
interface SutSecrets {
  variables?: Readonly<Record<string, string>>;
  values?: readonly string[];
}
