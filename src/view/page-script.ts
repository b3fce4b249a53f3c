import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TurnkitError } from '../errors.js';
import { PACKAGE_ROOT } from '../version.js';

/**
 * The page script's file: the browser code of src/view/client/browser/ bundled by `npm run build`
 * (scripts/build-client.mjs) and shipped in the package, as the embedded database's templates are.
 */
export const PAGE_SCRIPT_FILE = join(PACKAGE_ROOT, 'dist', 'client', 'page-script.js');

let script: string | undefined;

/** The one script of every page (an IIFE that reads the page's JSON data), read once per process. */
export function pageScript(): string {
  if (script === undefined) {
    try {
      script = readFileSync(PAGE_SCRIPT_FILE, 'utf8');
    } catch {
      const shown = relative(PACKAGE_ROOT, PAGE_SCRIPT_FILE);
      throw new TurnkitError(
        'IO',
        `${shown} is missing from turnkit's folder ${PACKAGE_ROOT}: run npm run build there`,
      );
    }
  }
  return script;
}
