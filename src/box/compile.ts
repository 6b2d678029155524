/**
 * A learner's file, compiled by the harness into one ES module that a box loads: the learner's code and what
 * it imports — the package's runner modules (`./BaseRunner.js`, `./state.js`, `../inventory/errors.js`) found
 * next to it or, for a file handed in from another folder, in src/runner/ — bundled by esbuild with an inline
 * source map, so a stack trace names the learner's own lines. The box then needs nothing of the checkout (it
 * can run as a user who cannot read it) and starts without a TypeScript loader. The box's own host is compiled
 * the same way, once per build (scripts/bundle-cli.mjs) or once per process when run from source.
 *
 * A file that does not compile is refused here, with esbuild's `file:line:column: ERROR: …` — before any box
 * is started.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { printable } from '../scenario/ScenarioError.js';
import { makeTempDir } from '../core/tempDir.js';
import { PACKAGE_ROOT } from '../core/paths.js';
import { dynamicImport } from '../core/dynamicImport.js';

/** A runner file that does not compile: esbuild's message, with the place. */
export class CompileError extends Error {
  override readonly name = 'CompileError';
}

type Esbuild = typeof import('esbuild');

let esbuild: Promise<Esbuild> | null = null;
const load = (): Promise<Esbuild> => (esbuild ??= dynamicImport<Esbuild>('esbuild'));

/** Where the package's runner modules are, as source (a bundle is compiled from the TypeScript itself). */
const RUNNER_HOME = join(PACKAGE_ROOT, 'src', 'runner');

/**
 * The package's own modules that are no learner's work: the shipped solution and the deliberately broken runners.
 * A submission whose compiled module holds code of one of them (it re-exports it, extends it, picks it from the
 * package) is named as such (`shipped`); importing the package for BaseRunner or the errors is not, since the
 * package's modules are marked free of side effects and whatever a submission does not use is left out.
 */
const SHIPPED: Array<{ path: string; is: Shipped }> = [
  { path: join('src', 'mutants') + '/', is: 'mutant' },
  { path: join('src', 'runner', 'ReferenceRunner.ts'), is: 'reference' },
];
export type Shipped = 'reference' | 'mutant';

/**
 * A relative import that finds nothing next to the file importing it — the submission, or another file of the
 * learner's it imports — is resolved again from src/runner/, as if that file stood there; `faultlab` is this
 * package. The package's own modules resolve as they are; everything else as esbuild resolves it.
 */
function submissionImports(): import('esbuild').Plugin {
  const own = join(PACKAGE_ROOT, 'src') + '/';
  /** The package's modules have no side effects: what a submission does not use of them stays out of its module. */
  const pure = (resolved: import('esbuild').ResolveResult) => (resolved.errors.length === 0 && resolved.path.startsWith(own) ? { ...resolved, sideEffects: false } : resolved);
  return {
    name: 'faultlab-submission-imports',
    setup(build) {
      build.onResolve({ filter: /^faultlab$/ }, () => ({ path: join(PACKAGE_ROOT, 'src', 'index.ts'), sideEffects: false }));
      // The native addon stays outside the module, and an import of it that nothing uses is dropped (the package's
      // core/storage.ts imports it for the database its runners never open in a box): a box has no node_modules.
      build.onResolve({ filter: /^better-sqlite3$/ }, (args) => (args.importer.startsWith(own) ? { path: args.path, external: true, sideEffects: false } : undefined));
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === 'again' || args.importer === '') return undefined;
        const here = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'again' });
        if (here.errors.length === 0 || args.importer.startsWith(own)) return pure(here);
        const home = await build.resolve(args.path, { kind: args.kind, resolveDir: RUNNER_HOME, pluginData: 'again' });
        return home.errors.length === 0 ? pure(home) : here;
      });
    },
  };
}

/**
 * Compile `entry` and what it imports into one ES module at `outFile` — for a process that finds it at `seenAt`
 * (a box with a root of its own): the source map names the learner's files from there, so a stack trace in the
 * box names them as the learner knows them. Says which of the package's shipped runners
 * its code holds, if any. Throws CompileError when it does not compile.
 */
export async function compileModule(entry: string, outFile: string, seenAt = outFile): Promise<{ shipped: Shipped | null }> {
  const { build } = await load();
  let metafile: import('esbuild').Metafile | undefined;
  let outputFiles: import('esbuild').OutputFile[] | undefined;
  try {
    ({ metafile, outputFiles } = await build({
      entryPoints: [entry],
      outfile: seenAt, // nothing is written there (write: false): the map's paths are made relative to it
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'inline',
      // A native addon cannot be bundled: a runner that imports the whole package gets it from its place.
      external: ['better-sqlite3', 'tsx', 'tsx/*', 'esbuild'],
      plugins: [submissionImports()],
      // Code that needs `require` (a CommonJS dependency bundled into an ES module) finds it.
      banner: { js: "import { createRequire as __faultlabRequire } from 'node:module'; const require = __faultlabRequire(import.meta.url);" },
      logLevel: 'silent',
      absWorkingDir: '/', // a message's file is then its absolute path
      write: false, // written below: a full disk is the machine's error, never the file's "does not compile"
      metafile: true,
    }));
  } catch (error) {
    const failure = error as { errors?: Array<{ text: string; location?: { file: string; line: number; column: number } | null }> };
    const first = failure.errors?.[0];
    if (first === undefined) throw error;
    const where = first.location ? `/${first.location.file.replace(/^\//, '')}:${first.location.line}:${first.location.column + 1}: ` : '';
    throw new CompileError(printable(`${where}ERROR: ${first.text}`));
  }
  writeFileSync(outFile, outputFiles![0]!.contents);
  const used = Object.entries(Object.values(metafile!.outputs)[0]?.inputs ?? {}).filter(([, input]) => input.bytesInOutput > 0);
  const root = relative('/', PACKAGE_ROOT);
  const shipped = SHIPPED.find(({ path }) => used.some(([input]) => input.startsWith(join(root, path))));
  return { shipped: shipped?.is ?? null };
}

/** The box's host as one module: the build's, or compiled once for this process when faultlab runs from source. */
let host: Promise<string> | null = null;
export function hostModule(): Promise<string> {
  const built = join(PACKAGE_ROOT, 'dist', 'bundle', 'box-host.mjs');
  if (!import.meta.url.endsWith('.ts') && existsSync(built)) return Promise.resolve(built);
  host ??= (async () => {
    const out = join(makeTempDir('host'), 'box-host.mjs');
    await compileModule(join(PACKAGE_ROOT, 'src', 'box', 'host.ts'), out);
    return out;
  })();
  return host;
}
