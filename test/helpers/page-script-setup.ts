import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The browser tests render pages from the sources: the page script they embed is bundled from the sources too
// (scripts/build-client.mjs, as `npm run build` does), so that an edit of src/view/client/browser/ needs no build.
export default async function setup(): Promise<void> {
  const script = fileURLToPath(new URL('../../scripts/build-client.mjs', import.meta.url));
  await promisify(execFile)(process.execPath, [script]);
}
