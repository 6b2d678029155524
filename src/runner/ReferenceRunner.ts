/**
 * The reference step (docs/spec.md §4). Each numbered comment is a rule of the lesson.
 *
 * It runs inside the harness, so it awaits each call to the log and the wire; a learner writes the same
 * rules without the awaits (LearnerRunner.ts runs in its box, where every call returns when it is done).
 */
import { isContractError, isTransientError } from '../inventory/errors.js';
import { BaseRunner } from './BaseRunner.js';
import type { RunnerState } from './state.js';

export class ReferenceRunner extends BaseRunner<'async'> {
  async step(state: RunnerState): Promise<RunnerState> {
    // 1. a finished run stays finished
    if (state.status !== 'running') return state;
    const task = state.task;

    // 2. no pending action: decide the next one, and persist it (with its key) before any attempt
    if (state.pending === null) {
      let action;
      try {
        action = this.decide(state);
      } catch (error) {
        return this.finalize(state, 'policy_error', error);
      }
      if (action.kind === 'finish') return this.finalize(state, action.status);
      if (state.calls >= task.max_calls) return this.finalize(state, 'budget_exhausted');
      state.pending = this.prepare(task, action);
      state.attempts = 0;
      state.decisions += 1;
      await this.save(state, 'prepared');
    }

    // 3. every attempt is a call, and the budget is checked before each one
    if (state.calls >= task.max_calls) return this.finalize(state, 'budget_exhausted');

    // 4. count the attempt and persist that before the request leaves
    state.calls += 1;
    state.attempts += 1;
    await this.save(state, 'attempt_started');

    // 5. authorize again, then execute: the same pending action, the same key
    let result: unknown;
    try {
      this.authorize(task, state.pending!);
      result = await this.execute(state);
    } catch (error) {
      if (isTransientError(error)) {
        // The effect may have happened: keep pending so a retry (or a human) can finish the same intent.
        if (state.attempts > task.max_retries) state.status = 'retry_exhausted';
        return this.save(state, `transient:${error.message}`);
      }
      if (isContractError(error)) return this.finalize(state, 'tool_error', error);
      throw error; // a crash, or a bug: not the runner's to handle
    }

    // 6. record what the tool answered; only now is the action done
    state.observations[state.pending!.name] = result;
    state.pending = null;
    return this.save(state, 'observed');
  }
}
