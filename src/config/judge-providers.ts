/** Which wire format the judge speaks (its own module so that the CLI can list the choices without loading zod). */
export const JUDGE_PROVIDERS = ['openai', 'anthropic'] as const;
