import { z } from 'zod';
import { TurnkitError } from '../errors.js';
import type { SutAdapter } from './sut-adapter.js';
import { sutMaxOutput, sutTimeout } from './sut-fields.js';
import { shownUrl, urlSecrets } from '../util/url-secrets.js';
/** An http SUT in a question: an OpenAI-compatible chat endpoint, asked once per turn. */
export const httpSutSchema = z
  .object({
    type: z.literal('http'),
    /** An OpenAI-compatible base URL, such as http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1. */
    baseUrl: z.string().url(),
    model: z.string().min(1),
    /** The environment variable holding the API key (never the key itself). */
    apiKeyEnv: z.string().min(1).optional(),
    /** The system prompt; the case file and the player's input follow as the user message. */
    system: z.string().optional(),
    temperature: z.number().min(0).max(2).optional(),
    /** Seconds per attempt. */
    timeout: sutTimeout,
    /** Attempts after the first on a 429, a 5xx, a timeout or a lost connection, with exponential backoff. */
    retries: z.number().int().min(0).max(10).default(2),
    /** Bytes of the answer's content; a longer one is an error (the body is not read past what it could take). */
    maxOutput: sutMaxOutput,
  })
  .strict();

/** An OpenAI-compatible chat SUT's settings. */
export type HttpSut = z.output<typeof httpSutSchema>;

/** The http kind: `{ type: 'http', baseUrl, model, apiKeyEnv?, system?, temperature?, timeout, retries, maxOutput }`. */
export const httpSutAdapter: SutAdapter<HttpSut> = {
  type: 'http',
  schema: httpSutSchema,
  inFiles: true,
  async prepare(sut, place) {
    if (sut.apiKeyEnv && !place.env[sut.apiKeyEnv])
      throw new TurnkitError(
        'BAD_INPUT',
        `${place.at(['sut', 'apiKeyEnv'])}: the environment variable ${sut.apiKeyEnv} is not set`,
      );
    const { httpSutCaller } = await import('./sut-http-call.js');
    return httpSutCaller(sut, { apiKey: sut.apiKeyEnv ? place.env[sut.apiKeyEnv] : undefined });
  },
  secrets(sut, env) {
    const key = sut.apiKeyEnv ? env[sut.apiKeyEnv] : undefined;
    return { values: [...urlSecrets(sut.baseUrl), ...(key ? [key] : [])] };
  },
  // A base URL's user, password and query (an api-key there) are credentials: the manifest keeps the address only.
  describe: (sut) => ({ ...sut, baseUrl: shownUrl(sut.baseUrl) }),
  label: (sut) => `http SUT (model "${sut.model}")`,
  pricedModel: (sut) => sut.model,
};
