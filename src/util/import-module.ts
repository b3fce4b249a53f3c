import { pathToFileURL } from 'node:url';

/** Imports a .ts/.mts/.js/.mjs file by path; TypeScript goes through tsx so projects need no build step. */
export async function importModule(path: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  if (/\.(c|m)?ts$/.test(path)) {
    // tsx and esbuild load only for a TypeScript file, not for every command that reads a .json config.
    const { tsImport } = await import('tsx/esm/api');
    return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
  }
  return (await import(url)) as Record<string, unknown>;
}
