import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// What a command loads before its modules run: the closure of their static value imports, read from the sources.
// The lean-imports tests (report, capture) hold a command's start-up to it, so that a new import that pulls a heavy
// package back in fails there.

/** The static value imports of a source file: relative ones as paths from `src`, packages by name. */
export function staticImports(src: string, file: string): { files: string[]; packages: string[] } {
  const text = readFileSync(join(src, file), 'utf8');
  const files: string[] = [];
  const packages: string[] = [];
  // `import ... from '...'`, `import '...'` and `export ... from '...'` at the start of a line, not `import type`.
  for (const match of text.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^;]*?\sfrom\s+)?'([^']+)'/gms)) {
    const spec = match[1]!;
    if (spec.startsWith('node:')) continue;
    if (!spec.startsWith('.')) {
      packages.push(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      continue;
    }
    const target = relative(src, resolve(src, dirname(file), spec)).replace(/\.js$/, '.ts');
    files.push(existsSync(join(src, target)) ? target : target.replace(/\.ts$/, '.tsx'));
  }
  return { files, packages };
}

/** Every module and package the entries (paths from `src`) load before running. */
export function loadedBefore(src: string, entries: readonly string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const found = staticImports(src, file);
    for (const name of found.packages) packages.add(name);
    queue.push(...found.files);
  }
  return { files, packages };
}
