/**
 * A learner's runner class, wrapped for its box: its constructor and every `step` run inside the determinism
 * guard. A step may be written with `async` and `await` (as the reference is) or without: in the box every call
 * answers at once, so the two are the same rules; a forbidden call made after an await is caught as well.
 */
import type { RunnerState } from './state.js';
import type { RunnerDeps, SyncRunnerClass } from './BaseRunner.js';
import { withDeterminismGuard, type Guarded } from './determinismGuard.js';

/** A runner of the learner's shape whose step may also resolve later (an `async step`). */
export interface GuardedRunner {
  step(state: RunnerState): RunnerState | Promise<RunnerState>;
}

export type GuardedRunnerClass = new (deps: RunnerDeps<'sync'>) => GuardedRunner;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

export function guardRunner(Learner: SyncRunnerClass, guarded: Guarded = withDeterminismGuard): GuardedRunnerClass {
  const Guarded = class implements GuardedRunner {
    readonly #inner: InstanceType<SyncRunnerClass>;

    constructor(deps: RunnerDeps<'sync'>) {
      this.#inner = guarded(() => new Learner(deps));
    }

    step(state: RunnerState): RunnerState | Promise<RunnerState> {
      const returned: unknown = guarded(() => this.#inner.step(state));
      if (!isThenable(returned)) return returned as RunnerState;
      // What an async step does after its first await runs later: under the guard still, and checked again.
      return Promise.resolve(returned).then(
        (state) => guarded(() => state as RunnerState, true),
        (error: unknown) =>
          guarded(() => {
            throw error;
          }, true),
      );
    }
  };
  Object.defineProperty(Guarded, 'name', { value: Learner.name || 'anonymous runner' });
  return Guarded;
}
