/**
 * The runner class the harness is given for a learner's runner: each instance stands for one runner built in
 * the box with the deps the harness hands this one. The harness builds runners, calls `step`, crashes and
 * recovers as it does with any runner, and never knows the step ran elsewhere.
 */
import type { Runner, RunnerClass, RunnerDeps } from '../runner/BaseRunner.js';
import type { RunnerState } from '../runner/state.js';
import type { Box } from './Box.js';
import { codeText, namedError, type Param } from '../core/message.js';

/**
 * A runner in a box touches no database of the harness's (its every call is carried out by the harness), so the
 * connections its runs used may serve the next run (src/sim/keptConnections.ts): a mark on its class says so.
 */
export const IN_A_BOX = Symbol.for('faultlab.inABox');

export function isInABox(runner: unknown): boolean {
  return typeof runner === 'function' && (runner as unknown as Record<symbol, unknown>)[IN_A_BOX] === true;
}

/** The learner's constructor threw in its box (or the box was lost while it ran): that run fails with it. */
export class RunnerConstructorError extends Error {
  override readonly name = 'RunnerConstructorError';
  /** What the constructor threw, as `Name: first line of its message` (a message of faultlab's, when it made the error). */
  readonly what: Param;

  constructor(cause: unknown) {
    const what = namedError(cause, true);
    super(typeof what === 'object' ? codeText(what) : String(what), { cause });
    this.what = what;
  }
}

/** `box()`: the box of the run under way (the caller opens a new one when the last was lost). */
export function boxedRunnerClass(box: () => Box, name: string): RunnerClass {
  const Boxed = class implements Runner {
    readonly #box: Box;
    readonly #built: Promise<number>;

    constructor(deps: RunnerDeps) {
      this.#box = box();
      this.#built = this.#box.build(deps);
      this.#built.catch(() => {}); // awaited by ready(); a box lost before then is the run's to report
    }

    async ready(): Promise<void> {
      try {
        await this.#built;
      } catch (error) {
        throw new RunnerConstructorError(error);
      }
    }

    async step(state: RunnerState): Promise<RunnerState> {
      return this.#box.step(await this.#built, state);
    }
  };
  Object.defineProperty(Boxed, 'name', { value: name });
  Object.defineProperty(Boxed, IN_A_BOX, { value: true });
  return Boxed;
}
