/**
 * Start a worker thread on the `worker` module next to the caller. Running from the CLI's bundle, that is the
 * worker's own bundle where the build made one (dist/bundle/<folder>-worker.load.cjs: one file, compiled
 * from a code cache), else the compiled `dist/src/<folder>/worker.js`, as for any compiled caller; running
 * from the TypeScript sources (the tests, tsx), the new thread first registers tsx so that it can load
 * `worker.ts` itself.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { PACKAGE_ROOT } from './paths.js';

/** `folder`: the caller's folder under src/ (e.g. `grade`); `callerUrl`: the caller's import.meta.url. */
export function startWorker(callerUrl: string, folder: string, options: WorkerOptions = {}): Worker {
  if (callerUrl.endsWith('.cjs')) {
    const bundled = join(PACKAGE_ROOT, 'dist', 'bundle', `${folder}-worker.load.cjs`);
    if (existsSync(bundled)) return new Worker(bundled, options);
  }
  if (!callerUrl.endsWith('.ts')) return new Worker(pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', folder, 'worker.js')), options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', callerUrl).href;
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
