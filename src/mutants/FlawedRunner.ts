/**
 * The reference step with switches for the classic mistakes. Each mutant turns on exactly one flaw; with
 * none on, this is docs/spec.md §4 line for line (a test proves it passes all 17). It lives apart from
 * ReferenceRunner so the reference stays the plain lesson text.
 */
import { isContractError, isTransientError } from '../inventory/errors.js';
import { BaseRunner } from '../runner/BaseRunner.js';
import type { RunnerState } from '../runner/state.js';

export interface Flaws {
  /** Make a fresh key on every attempt instead of once at prepare time. */
  newKeyPerAttempt?: boolean;
  /** Treat a ContractError like a TransientError. */
  retryContractErrors?: boolean;
  /** Drop the budget check before an attempt (docs/spec.md §4 step 3) — and the one at decision time. */
  noBudgetCheck?: boolean;
  /** Forget the pending action after a transient failure ("it failed, move on"). */
  dropPendingAfterTransient?: boolean;
  /** When retries run out, start over as a new intent with a new key instead of stopping. */
  reissueExhaustedWithNewKey?: boolean;
  /** Save a reserve as observed (pending cleared, a placeholder result) before the request goes out. */
  saveObservationBeforeCommit?: boolean;
  /** Set the terminal status of a finish without saving it. */
  finishNotSaved?: boolean;
  /** After a recovery with an attempt in flight, wait for its reply (which never comes) instead of retrying. */
  waitForInFlightReply?: boolean;
  /** Leave a newly prepared action's attempts where the last action's ended (no `attempts = 0`). */
  noAttemptsReset?: boolean;
  /** Save the observation with the action still pending, then clear pending in a second save. */
  observeBeforeClearing?: boolean;
  /** Never end retry_exhausted: a TransientError is retried however many there were. */
  ignoreRetryLimit?: boolean;
}

export abstract class FlawedRunner extends BaseRunner<'async'> {
  protected abstract readonly flaws: Flaws;

  async step(state: RunnerState): Promise<RunnerState> {
    const flaws = this.flaws;
    this.#inFlightOnArrival ??= state.pending !== null && state.attempts > 0;
    if (state.status !== 'running') return state;
    const task = state.task;
    if (state.pending === null) {
      let action;
      try {
        action = this.decide(state);
      } catch (error) {
        return this.finalize(state, 'policy_error', error);
      }
      if (action.kind === 'finish') {
        if (!flaws.finishNotSaved) return this.finalize(state, action.status);
        state.status = action.status; // "the run is over anyway" — but the log still says running
        return state;
      }
      if (!flaws.noBudgetCheck && state.calls >= task.max_calls) return this.finalize(state, 'budget_exhausted');
      state.pending = this.prepare(task, action);
      if (!flaws.noAttemptsReset) state.attempts = 0;
      state.decisions += 1;
      await this.save(state, 'prepared');
    } else if (flaws.waitForInFlightReply && this.#inFlightOnArrival) {
      return state; // "an attempt is in flight; its reply will come" — it never does
    }
    if (!flaws.noBudgetCheck && state.calls >= task.max_calls) return this.finalize(state, 'budget_exhausted');
    state.calls += 1;
    state.attempts += 1;
    if (flaws.newKeyPerAttempt && state.pending.name === 'reserve') {
      state.pending = { ...state.pending, args: { ...state.pending.args, key: `${task.id}:reserve:attempt-${state.calls}` } };
    }
    await this.save(state, 'attempt_started');
    const pending = state.pending;
    if (flaws.saveObservationBeforeCommit && pending.name === 'reserve') {
      state.observations[pending.name] = { placeholder: 'the reply is on its way' };
      state.pending = null;
      await this.save(state, 'observed');
    }
    let result: unknown;
    try {
      this.authorize(task, pending);
      result = await this.tools.execute(pending, { taskId: task.id, call: state.calls, attempt: state.attempts });
    } catch (error) {
      if (isTransientError(error) || (flaws.retryContractErrors && isContractError(error))) {
        if (state.attempts > task.max_retries && !flaws.ignoreRetryLimit) {
          if (flaws.reissueExhaustedWithNewKey && pending.name === 'reserve') {
            state.pending = { ...pending, args: { ...pending.args, key: `${pending.args.key as string}:again` } };
            state.attempts = 0;
            return this.save(state, 'prepared');
          }
          state.status = 'retry_exhausted';
        }
        if (flaws.dropPendingAfterTransient) state.pending = null;
        return this.save(state, `transient:${(error as Error).message}`);
      }
      if (isContractError(error)) return this.finalize(state, 'tool_error', error);
      throw error;
    }
    state.observations[pending.name] = result;
    if (flaws.observeBeforeClearing) await this.save(state, 'observed'); // "the answer is safe now"
    state.pending = null;
    return this.save(state, flaws.observeBeforeClearing ? 'cleared' : 'observed');
  }

  /** Did this instance start (after a recovery) with an attempt already counted? */
  #inFlightOnArrival: boolean | null = null;
}
