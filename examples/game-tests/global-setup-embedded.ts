import type { TestProject } from 'vitest/node';
import { setupGameDatabase } from './database-setup.js';

/** The game suite's database on the embedded backend. */
export default (vitest: TestProject): Promise<() => Promise<void>> => setupGameDatabase(vitest, 'embedded');
