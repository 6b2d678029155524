/**
 * A learner hands in `LearnerRunner.ts` exactly as it sits in src/runner/: it imports `./BaseRunner.js`,
 * `./state.js` and `../inventory/errors.js`, which exist next to it only inside this package. Graded from any
 * other folder (`submissions/alice/LearnerRunner.ts`), a relative import that finds nothing there is resolved
 * again as if the file stood in src/runner/ — the package's own modules. `import … from 'faultlab'` works too,
 * from anywhere: it is this package. And the submission's .ts/.js files are ES modules, as in the package, even
 * in a folder with no package.json saying so. Installed before a runner file is loaded.
 */
import { register } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../core/paths.js';

/** The module-resolution hooks, as source: Node loads hooks in their own thread, from a URL. */
const HOOKS = `
let folder, runnerHome, packageIndex;
export function initialize(data) {
  folder = data.folder;
  runnerHome = data.runnerHome;
  packageIndex = data.packageIndex;
}
const ESM = /[.](ts|js)([?].*)?$/;
const inSubmission = (url) => typeof url === 'string' && url.startsWith(folder);
export async function resolve(specifier, context, next) {
  if (specifier === 'faultlab') return { url: packageIndex, shortCircuit: true };
  let resolved;
  try {
    resolved = await next(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('./') || specifier.startsWith('../');
    if (!relative || !inSubmission(context.parentURL) || error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return next(specifier, { ...context, parentURL: runnerHome });
  }
  return inSubmission(resolved.url) && ESM.test(resolved.url) ? { ...resolved, format: 'module' } : resolved;
}
export async function load(url, context, next) {
  return next(url, inSubmission(url) && ESM.test(url) ? { ...context, format: 'module' } : context);
}
`;

/** Folders whose files already have the hooks (each registration adds a layer for one folder). */
const installed = new Set<string>();

/**
 * Resolve the missing relative imports of files in `file`'s folder against the package's runner module: the
 * compiled one when this code runs from dist/ (so the learner's runner meets the modules the simulator uses),
 * else the source. Once per folder and process (or thread).
 */
export function installSubmissionImports(file: string): void {
  const folder = pathToFileURL(dirname(file)).href + '/';
  if (installed.has(folder)) return;
  installed.add(folder);
  const compiled = !import.meta.url.endsWith('.ts');
  const root = compiled ? join(PACKAGE_ROOT, 'dist', 'src') : join(PACKAGE_ROOT, 'src');
  const ext = compiled ? 'js' : 'ts';
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
    data: {
      folder,
      runnerHome: pathToFileURL(join(root, 'runner', `LearnerRunner.${ext}`)).href,
      packageIndex: pathToFileURL(join(root, `index.${ext}`)).href,
    },
  });
}
