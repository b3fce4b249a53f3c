/**
 * The code of the worker thread a module SUT runs in, one worker per call: it imports the module (TypeScript through
 * tsx), finds the export, and either says whether it is there (`check`) or calls it with a pool on the scratch
 * campaign's database and posts what it returned. Plain CommonJS source, so that it runs the same from the sources
 * (tests) and from dist/; the modules it needs come as resolved URLs in its workerData.
 */
export const MODULE_SUT_WORKER = String.raw`
const { workerData, parentPort } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const data = workerData;
const stop = new AbortController();
parentPort.on('message', (message) => { if (message === 'abort') stop.abort(new Error('the rep is over')); });
// The SUT's timeout runs from here: starting a thread is turnkit's cost, which a loaded machine can make seconds.
parentPort.postMessage({ kind: 'started' });
async function load() {
  const url = pathToFileURL(data.path).href;
  if (/\.(c|m)?ts$/.test(data.path)) {
    const { tsImport } = await import(data.tsx);
    return tsImport(url, data.tsx);
  }
  return import(url);
}
function exported(module) {
  // A .ts file outside a "type": "module" package is compiled as CommonJS: its exports arrive one level down.
  const nested = module.default;
  const fn = typeof module[data.export] === 'function' || typeof nested !== 'object' || nested === null
    ? module[data.export] : nested[data.export];
  return typeof fn === 'function' ? fn : undefined;
}
function answer(value) {
  // Only what turnkit reads of the answer crosses to it, as plain data (a class instance or a function would not).
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || typeof value.response !== 'string') return { notAnswer: true };
  const out = { response: value.response };
  if (value.usage !== undefined) {
    try { out.usage = JSON.parse(JSON.stringify(value.usage)); } catch { out.usage = 'unreadable'; }
  }
  if (value.cost !== undefined) out.cost = typeof value.cost === 'number' ? value.cost : String(value.cost);
  if (value.toolCalls !== undefined && value.toolCalls !== null) {
    // As JSON holds it: turnkit checks the shape on its side (sut-tool-calls.ts).
    try { out.toolCalls = JSON.parse(JSON.stringify(value.toolCalls)); } catch { out.toolCalls = 'unreadable'; }
  }
  return out;
}
(async () => {
  let module;
  try {
    module = await load();
  } catch (error) {
    parentPort.postMessage({ kind: 'load-failed', message: String((error && error.message) || error) });
    return;
  }
  const fn = exported(module);
  if (!fn) return parentPort.postMessage({ kind: 'missing' });
  if (data.mode === 'check') return parentPort.postMessage({ kind: 'found' });
  const pg = (await import(data.pg)).default;
  const db = new pg.Pool({ connectionString: data.databaseUrl, max: 2 });
  db.on('error', () => {});
  let message;
  try {
    const value = answer(await fn(data.request, { db, databaseUrl: data.databaseUrl, signal: stop.signal }));
    const response = typeof value === 'string' ? value : value.response;
    // A huge answer is not copied across to turnkit: its size is all that is said.
    if (typeof response === 'string' && Buffer.byteLength(response) > data.maxOutput)
      message = { kind: 'too-large' };
    else message = { kind: 'value', value };
  } catch (error) {
    message = { kind: 'throw', message: String((error && error.message) || error) };
  }
  await Promise.race([db.end().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  parentPort.postMessage(message);
})();
`;
