import type { FactQuery } from '../scratch/read-facts.js';
import type { Question } from './question-format.js';

/** A question's facts as queries (a bare string is the fact's SQL), or undefined when it declares none. */
export function factQueriesOf(facts: Question['facts']): Record<string, FactQuery> | undefined {
  if (!facts) return undefined;
  return Object.fromEntries(
    Object.entries(facts).map(([name, fact]) => [name, typeof fact === 'string' ? { sql: fact } : fact]),
  );
}
