import { z } from 'zod';
import { JUDGE_PROVIDERS } from './judge-providers.js';

/** An LLM judge: which model, where, and how hard to try (`--judge FILE` or the flags of `turnkit judge`). */
export const judgeSettingsSchema = z
  .object({
    provider: z
      .enum(JUDGE_PROVIDERS)
      .default('openai')
      .describe(
        'openai: any OpenAI-compatible endpoint (OpenAI, Ollama, llama.cpp, vLLM); anthropic: the Messages API.',
      ),
    model: z.string().trim().min(1, 'name the judge model').describe('The judge model, such as gpt-4o-mini.'),
    baseUrl: z
      .string()
      .url()
      // A key in the URL would be sent and shown with it: it belongs in the API key variable.
      .refine((url) => {
        try {
          const parsed = new URL(url);
          return parsed.username === '' && parsed.password === '';
        } catch {
          return true;
        }
      }, 'holds a user name or password: put the key in the API key variable (apiKeyEnv) instead')
      .optional()
      .describe("Base URL, such as http://127.0.0.1:11434/v1 for Ollama; the provider's own when absent."),
    apiKeyEnv: z
      .string()
      .regex(/^\w+$/, 'an environment variable name')
      .optional()
      .describe(
        'The environment variable holding the API key, never the key itself (default OPENAI_API_KEY or ANTHROPIC_API_KEY).',
      ),
    temperature: z.number().min(0).max(2).default(0).describe('Sampling temperature of the judge.'),
    maxTokens: z.number().int().positive().default(1024).describe('Most tokens a verdict may take.'),
    concurrency: z.number().int().positive().default(4).describe('Verdicts requested at a time.'),
    retries: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(4)
      .describe('Retries of a rate-limited (429) or failed (5xx, connection) request, with exponential backoff.'),
    timeout: z.number().positive().default(120).describe('Seconds per request.'),
    state: z
      .boolean()
      .default(false)
      .describe(
        "Show the judge the game's state beside the response: what the SUT changed in its campaign and the question's facts (its marks go to marks.judge-MODEL-state.csv).",
      ),
  })
  .strict();

/** The settings as written (defaults may be left out). */
export type JudgeSettingsInput = z.input<typeof judgeSettingsSchema>;
/** The settings with every default filled in. */
export type JudgeSettings = z.output<typeof judgeSettingsSchema>;

/** The API key variable a provider reads when the settings name none. */
export function defaultKeyVariable(provider: JudgeSettings['provider']): string {
  return provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
}

/** A model name as part of a file name: `marks.judge-gpt-4o-mini.csv`. */
export function judgeFileSlug(model: string): string {
  return model.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'model';
}
