/**
 * Loading a runner class from a file. The learner's file is loaded from its TypeScript source with tsx, so
 * an edit shows up at the next run with no build step — from any folder: a copy of LearnerRunner.ts handed
 * in as `submissions/alice/LearnerRunner.ts` finds its imports (submissionImports.ts). Runner classes are recognised by shape (a class
 * whose prototype has `step`), not by identity: a file loaded from source has its own copy of BaseRunner,
 * and that is fine.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brandOf, hasBrand, setBrand } from '../core/brand.js';
import { t } from '../core/i18n/index.js';
import { PACKAGE_ROOT } from '../core/paths.js';
import { dynamicImport } from '../core/dynamicImport.js';
import type { RunnerClass } from './BaseRunner.js';
import { installSubmissionImports } from './submissionImports.js';

/** The exercise: the one file a learner edits. */
export const LEARNER_FILE = join(PACKAGE_ROOT, 'src', 'runner', 'LearnerRunner.ts');

export type RunnerLoadCode = 'UNKNOWN_RUNNER' | 'NO_SUCH_FILE' | 'NO_RUNNER_CLASS';

const LOAD_BRAND = brandOf('RunnerLoadError');

/** A runner that cannot be had: an unknown name, a missing file, a module without a runner class. Bad input. */
export class RunnerLoadError extends Error {
  override readonly name = 'RunnerLoadError';
  readonly code: RunnerLoadCode;

  constructor(code: RunnerLoadCode, message: string) {
    super(message);
    this.code = code;
    setBrand(this, LOAD_BRAND);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, LOAD_BRAND);
  }
}

export async function loadRunnerClass(file: string, exportName?: string): Promise<RunnerClass> {
  if (!existsSync(file)) throw new RunnerLoadError('NO_SUCH_FILE', t('target.noSuchFile', { file }));
  // A learner's file as handed in, away from src/runner/: its `./BaseRunner.js` must still be found.
  installSubmissionImports(file);
  return runnerClassFrom((await importModule(file)) as Record<string, unknown>, file, exportName);
}

const isRunnerClass = (v: unknown): boolean => typeof v === 'function' && typeof (v as { prototype?: { step?: unknown } }).prototype?.step === 'function';

/** The runner class among a module's exports (for a module imported some other way, e.g. by vitest). */
export function runnerClassFrom(module: Record<string, unknown>, file: string, exportName?: string): RunnerClass {
  const pick = exportName !== undefined ? module[exportName] : pickRunner(module);
  if (!isRunnerClass(pick)) {
    const found = Object.keys(module).join(', ') || t('target.exportsNothing');
    throw new RunnerLoadError('NO_RUNNER_CLASS', t('target.noRunnerClass', { file, found }));
  }
  return pick as RunnerClass;
}

function pickRunner(module: Record<string, unknown>): unknown {
  for (const preferred of ['LearnerRunner', 'default', 'Runner']) if (isRunnerClass(module[preferred])) return module[preferred];
  return Object.values(module).find(isRunnerClass);
}

async function importModule(file: string): Promise<unknown> {
  if (/\.[cm]?ts$/.test(file)) {
    // tsx inlines a source map in what it compiles: with maps on, a stack trace names the learner's own lines.
    process.setSourceMapsEnabled(true);
    const { tsImport } = await dynamicImport<typeof import('tsx/esm/api')>('tsx/esm/api');
    return tsImport(pathToFileURL(file).href, import.meta.url);
  }
  return dynamicImport(pathToFileURL(file).href);
}
