/**
 * The runner class the simulator is given when it grades a learner: each instance stands for one runner in the
 * learner's process, built there with the deps the simulator hands this one. `simulate` stays as it is — it
 * builds runners, calls `step`, crashes and recovers — and never knows the step ran elsewhere.
 *
 * A run starts when the simulator builds its first runner: simulate makes one policy per run and hands it to
 * every runner of that run (the one after a crash included), so a policy not seen before marks a new run. That
 * is when the learner's process is told to start afresh and the watchdog's clock for the run starts.
 */
import type { Policy } from '../runner/policy.js';
import type { Runner, RunnerClass, RunnerDeps } from '../runner/BaseRunner.js';
import type { RunnerState } from '../runner/state.js';
import type { RunControl } from './control.js';
import type { LearnerProcess } from './LearnerProcess.js';

export function proxyRunnerClass(learner: () => LearnerProcess, control: RunControl, name: string): RunnerClass {
  let policy: Policy | null = null;
  let steps = 0;
  const Proxy = class implements Runner {
    readonly #process: LearnerProcess;
    readonly #instance: number;

    constructor(deps: RunnerDeps) {
      this.#process = learner();
      if (deps.policy !== policy) {
        policy = deps.policy;
        steps = 0;
        control.running();
        this.#process.beginRun();
      }
      this.#instance = this.#process.build(deps);
    }

    step(state: RunnerState): RunnerState {
      steps += 1;
      return this.#process.step(this.#instance, state, steps);
    }
  };
  Object.defineProperty(Proxy, 'name', { value: name });
  return Proxy;
}
