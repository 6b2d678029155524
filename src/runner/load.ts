/**
 * Loading a runner class from a file. The learner's file is loaded from its TypeScript source with tsx, so
 * an edit shows up at the next run with no build step. Runner classes are recognised by shape (a class
 * whose prototype has `step`), not by identity: a file loaded from source has its own copy of BaseRunner,
 * and that is fine.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brandOf, hasBrand, setBrand } from '../core/brand.js';
import { PACKAGE_ROOT } from '../core/paths.js';
import { dynamicImport } from '../core/dynamicImport.js';
import type { RunnerClass } from './BaseRunner.js';

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
  if (!existsSync(file)) throw new RunnerLoadError('NO_SUCH_FILE', `no such file ${file}`);
  return runnerClassFrom((await importModule(file)) as Record<string, unknown>, file, exportName);
}

const isRunnerClass = (v: unknown): boolean => typeof v === 'function' && typeof (v as { prototype?: { step?: unknown } }).prototype?.step === 'function';

/** The runner class among a module's exports (for a module imported some other way, e.g. by vitest). */
export function runnerClassFrom(module: Record<string, unknown>, file: string, exportName?: string): RunnerClass {
  const pick = exportName !== undefined ? module[exportName] : pickRunner(module);
  if (!isRunnerClass(pick)) {
    const found = Object.keys(module).join(', ') || 'nothing';
    throw new RunnerLoadError('NO_RUNNER_CLASS', `${file}: no runner class found (a class with a step(state) method); it exports ${found}`);
  }
  return pick as RunnerClass;
}

function pickRunner(module: Record<string, unknown>): unknown {
  for (const preferred of ['LearnerRunner', 'default', 'Runner']) if (isRunnerClass(module[preferred])) return module[preferred];
  return Object.values(module).find(isRunnerClass);
}

async function importModule(file: string): Promise<unknown> {
  if (/\.[cm]?ts$/.test(file)) {
    const { tsImport } = await dynamicImport<typeof import('tsx/esm/api')>('tsx/esm/api');
    return tsImport(pathToFileURL(file).href, import.meta.url);
  }
  return dynamicImport(pathToFileURL(file).href);
}
