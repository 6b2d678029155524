/**
 * A runner class among a module's exports. A learner's file is compiled by the harness and loaded in its box
 * (src/box): this is how the box finds the class in it. Runner classes are recognised by shape (a class whose
 * prototype has `step`), not by identity: a compiled file has its own copy of BaseRunner, and that is fine.
 * Nothing here knows where the package is: the box has only its own folder.
 */
import { brandOf, hasBrand, setBrand } from '../core/brand.js';
import { codeText, message, type Message } from '../core/message.js';
import type { RunnerCode } from './codes.js';
import type { RunnerClass } from './BaseRunner.js';
import { WORKER_METHODS, type BaseWorker, type WorkerDeps } from './BaseWorker.js';

export type RunnerLoadCode = 'UNKNOWN_RUNNER' | 'NO_SUCH_FILE' | 'NO_RUNNER_CLASS';

const LOAD_BRAND = brandOf('RunnerLoadError');

/** A runner that cannot be had: an unknown name, a missing file, a module without a runner class. Bad input. */
export class RunnerLoadError extends Error {
  override readonly name = 'RunnerLoadError';
  readonly code: RunnerLoadCode;
  /** What is wrong, as a message (its code text is the `.message`). */
  readonly said: Message;

  constructor(code: RunnerLoadCode, said: Message) {
    super(codeText(said));
    this.code = code;
    this.said = said;
    setBrand(this, LOAD_BRAND);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, LOAD_BRAND);
  }
}

const isRunnerClass = (v: unknown): boolean => typeof v === 'function' && typeof (v as { prototype?: { step?: unknown } }).prototype?.step === 'function';

/** The second exercise's shape (src/runner/BaseWorker.ts): a class with claim, finish and sweep, and no step. */
const isWorkerClass = (v: unknown): boolean =>
  typeof v === 'function' && !isRunnerClass(v) && WORKER_METHODS.every((name) => typeof (v as { prototype?: Record<string, unknown> }).prototype?.[name] === 'function');

/** What a learner's file holds: a runner (the first exercise) or a worker's queue (the second). */
export type LearnerClass = { kind: 'runner'; cls: RunnerClass } | { kind: 'worker'; cls: WorkerClassShape };

/** A worker class as the box builds it: a constructor, and its `fence` (a static string). */
export type WorkerClassShape = (new (deps: WorkerDeps) => BaseWorker) & { fence?: unknown };

/**
 * The class a learner's module offers: a runner (`LearnerRunner`, else the default, else `Runner`, else the first)
 * or, when it has none, a worker (`LearnerWorker`, else the default, else the first).
 */
export function learnerClassFrom(module: Record<string, unknown>, file: string): LearnerClass {
  const runner = pickRunner(module);
  if (runner !== undefined) return { kind: 'runner', cls: runner as RunnerClass };
  for (const preferred of ['LearnerWorker', 'default']) if (isWorkerClass(module[preferred])) return { kind: 'worker', cls: module[preferred] as WorkerClassShape };
  const worker = Object.values(module).find(isWorkerClass);
  if (worker !== undefined) return { kind: 'worker', cls: worker as WorkerClassShape };
  return { kind: 'runner', cls: runnerClassFrom(module, file) }; // throws: neither is there
}

/** The runner class among a module's exports: `LearnerRunner`, else the default, else `Runner`, else the first. */
export function runnerClassFrom(module: Record<string, unknown>, file: string, exportName?: string): RunnerClass {
  const pick = exportName !== undefined ? module[exportName] : pickRunner(module);
  if (!isRunnerClass(pick)) {
    const found = Object.keys(module).join(', ') || message('target.exportsNothing');
    throw new RunnerLoadError('NO_RUNNER_CLASS', message<RunnerCode>('target.noRunnerClass', { file, found }));
  }
  return pick as RunnerClass;
}

function pickRunner(module: Record<string, unknown>): unknown {
  for (const preferred of ['LearnerRunner', 'default', 'Runner']) if (isRunnerClass(module[preferred])) return module[preferred];
  return Object.values(module).find(isRunnerClass);
}
