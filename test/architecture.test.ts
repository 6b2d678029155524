/**
 * The folder tree is the dependency order (STYLE.md 14). Read bottom-up, each folder of src/ may import
 * only from itself and the folders below it; nothing imports the CLI; there is no import cycle, type-only
 * imports included. This test reads the imports of every file under src/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', 'src');

/** Bottom-up. The README's architecture section lists the same folders in the same order. */
export const LAYERS = [
  'core',
  'faults',
  'scenario',
  'inventory',
  'runner',
  'mutants',
  'durability',
  'sim',
  'check',
  'render',
  'labs',
  'explore',
  'grade',
  'classroom',
  'cli',
] as const;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.(ts|mts)$/.test(name) ? [path] : [];
  });
}

/** Every relative module a file imports: static, type-only, re-exports and dynamic import(). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/g), ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => m[1]!,
  );
  return specs.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts').replace(/\.mjs$/, '.mts')));
}

function folderOf(file: string): string {
  const rel = relative(SRC, file);
  return rel.includes('/') ? rel.split('/')[0]! : 'index';
}

const files = filesUnder(SRC);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const rank = (folder: string) => (folder === 'index' ? LAYERS.indexOf('cli') - 0.5 : LAYERS.indexOf(folder as (typeof LAYERS)[number]));

describe('the folder tree is the dependency order', () => {
  it('knows every folder of src/', () => {
    const folders = new Set(files.map(folderOf));
    expect([...folders].filter((f) => f !== 'index' && rank(f) === -1)).toEqual([]);
  });

  it('imports only from the same folder or a folder below', () => {
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      for (const target of imports) {
        const from = folderOf(file);
        const to = folderOf(target);
        if (from !== to && rank(to) > rank(from)) upward.push(`${relative(SRC, file)} → ${relative(SRC, target)} (${from} is below ${to})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps the leaf a leaf: src/core imports nothing of the project but itself', () => {
    const out = [...graph].flatMap(([file, imports]) =>
      folderOf(file) === 'core' ? imports.filter((t) => folderOf(t) !== 'core').map((t) => `${relative(SRC, file)} → ${relative(SRC, t)}`) : [],
    );
    expect(out).toEqual([]);
  });

  it('lets nothing outside src/cli import src/cli', () => {
    const out = [...graph].flatMap(([file, imports]) =>
      folderOf(file) === 'cli' ? [] : imports.filter((t) => folderOf(t) === 'cli').map((t) => `${relative(SRC, file)} → ${relative(SRC, t)}`),
    );
    expect(out).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target].map((f) => relative(SRC, f)).join(' → '));
        else if (!state.has(target) && graph.has(target)) visit(target);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it('resolves every relative import to a file that exists', () => {
    const missing = [...graph].flatMap(([file, imports]) => imports.filter((t) => !graph.has(t)).map((t) => `${relative(SRC, file)} → ${relative(SRC, t)}`));
    expect(missing).toEqual([]);
  });
});
