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
