// Loaded with `node --import`: appends the URL of every ES module the process loads to $TURNKIT_MODULE_TRACE, so a
// test can check what a command loads (a module list does not depend on how busy the machine is; a time does).
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.TURNKIT_MODULE_TRACE, url + '\\n');
  return next(url, context);
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
