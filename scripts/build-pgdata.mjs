// Part of `npm run build`: the pre-initialized embedded data directories in dist/pgdata/ (src/db/pgdata-build.ts),
// rebuilt only when PGlite or the sample migrations changed.
import { buildPgdataTemplates } from '../dist/src/db/pgdata-build.js';

const { dir, built } = await buildPgdataTemplates();
if (built.length > 0) console.log(`embedded data directory templates: ${built.join(', ')} in ${dir}`);
