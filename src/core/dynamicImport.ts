/**
 * `import(specifier)`, made by a hook when one is installed. The CLI's bundle runs as a script compiled
 * from V8's code cache (scripts/bundle-cli.mjs), and such a script cannot import on its own: its loader, an
 * ES module, installs the hook and the import is made there. Everywhere else this is a plain import.
 */
const HOOK = Symbol.for('faultlab.dynamicImport');

export function dynamicImport<T = unknown>(specifier: string): Promise<T> {
  const hook = (globalThis as Record<symbol, ((specifier: string) => Promise<unknown>) | undefined>)[HOOK];
  return (hook ? hook(specifier) : import(specifier)) as Promise<T>;
}
