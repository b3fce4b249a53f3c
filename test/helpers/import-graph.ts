import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The folder-level import graph of src/, for the architecture test: which layer imports which. A layer is a folder
// under src/ (view's server and client are layers of their own: the server is an edge, the client a browser bundle).

/** One relative import of one source file. */
export interface ImportEdge {
  /** The importing file, relative to src/. */
  from: string;
  /** The imported file, relative to src/ (as written: `.js`). */
  to: string;
  /** `import type` / `export type`: erased at build time, no load order. */
  typeOnly: boolean;
}

/** The layer a file of src/ is in, or undefined for src/'s own top-level files (index.ts, errors.ts, version.ts). */
export function layerOf(file: string): string | undefined {
  const parts = file.split(/[\\/]/);
  if (parts.length === 1) return undefined;
  if (parts[0] === 'view' && parts.length > 2 && (parts[1] === 'server' || parts[1] === 'client'))
    return `view/${parts[1]}`;
  return parts[0];
}

/** Every .ts/.tsx file under `dir`, absolute. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every relative import (static, dynamic, re-export) of the files under `src`. */
export function importEdges(src: string): ImportEdge[] {
  return sourceFiles(src).flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    return [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((match) => {
      const lineStart = text.lastIndexOf('\n', match.index) + 1;
      return {
        from: relative(src, path),
        to: relative(src, resolve(dirname(path), match[1]!)),
        typeOnly: /^\s*(import|export)\s+type\b/.test(text.slice(lineStart, match.index)),
      };
    });
  });
}

/** The imports that cross from one layer to another: `from -> to` pairs with the files that make each. */
export function layerEdges(edges: readonly ImportEdge[]): Map<string, ImportEdge[]> {
  const crossing = new Map<string, ImportEdge[]>();
  for (const edge of edges) {
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    if (from === undefined || to === undefined || from === to) continue;
    const key = `${from} -> ${to}`;
    crossing.set(key, [...(crossing.get(key) ?? []), edge]);
  }
  return crossing;
}

/** The layer cycles of a graph (strongly connected components of more than one layer), each sorted. */
export function layerCycles(crossing: Map<string, unknown>): string[][] {
  const next = new Map<string, string[]>();
  for (const key of crossing.keys()) {
    const [from, to] = key.split(' -> ') as [string, string];
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  // Tarjan's algorithm: small graph, plain recursion.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return cycles;
}
