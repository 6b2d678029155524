/**
 * A learner's runner class, wrapped for a graded run: its constructor and every `step` run inside the
 * determinism guard, a `step` that returns a Promise is refused with a message that says why, and each
 * step is announced (the grader's watchdog uses it to say in which step a run hung).
 */
import type { Runner, RunnerClass, RunnerDeps } from './BaseRunner.js';
import type { RunnerState } from './state.js';
import { withDeterminismGuard, type Guarded } from './determinismGuard.js';
import { t } from '../core/i18n/index.js';

export class AsyncStepError extends Error {
  override readonly name = 'AsyncStepError';

  constructor() {
    super(t('grade.asyncStep'));
  }
}

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * One wrapper per run: `onStep` hears 1, 2, 3… across every runner instance the run builds (a crash
 * builds a new one), which matches the harness's own step count.
 */
export function guardRunner(Learner: RunnerClass, onStep: (step: number) => void = () => {}, guarded: Guarded = withDeterminismGuard): RunnerClass {
  let steps = 0;
  const Guarded = class implements Runner {
    readonly #inner: Runner;

    constructor(deps: RunnerDeps) {
      this.#inner = guarded(() => new Learner(deps));
    }

    step(state: RunnerState): RunnerState {
      steps += 1;
      onStep(steps);
      const returned = guarded(() => this.#inner.step(state));
      if (isThenable(returned)) {
        (returned as unknown as Promise<unknown>).catch(() => {}); // it will never be awaited
        throw new AsyncStepError();
      }
      return returned;
    }
  };
  Object.defineProperty(Guarded, 'name', { value: Learner.name || 'anonymous runner' });
  return Guarded;
}
