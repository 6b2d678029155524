/**
 * Start a worker thread on the `worker` module next to the caller. Running compiled (dist/src, or the CLI's
 * bundle), that is the compiled `dist/src/<folder>/worker.js`; running from the TypeScript sources (the
 * tests, tsx), the new thread first registers tsx so that it can load `worker.ts` itself.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { PACKAGE_ROOT } from './paths.js';

/** `folder`: the caller's folder under src/ (e.g. `grade`); `callerUrl`: the caller's import.meta.url. */
export function startWorker(callerUrl: string, folder: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', folder, 'worker.js')), options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', callerUrl).href;
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
