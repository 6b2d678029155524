/**
 * ─── The exercise: write LearnerRunner.step ──────────────────────────────────────────────────────────────
 * This is the one file you edit. Read lessons/08-the-exercise.md first; lessons 1–7 explain why each rule is here.
 *
 * step(state) advances the run by one step and returns the state. The contract:
 *   1. status is not 'running'          → return the state unchanged.
 *   2. no pending action                → this.decide(state) (policy + validation + authorization; any error →
 *      finalize 'policy_error'); a finish action → finalize its status; calls >= max_calls → 'budget_exhausted';
 *      otherwise pending = this.prepare(task, action) (this is where the idempotency key is made), attempts = 0,
 *      decisions += 1, save 'prepared'.
 *   3. calls >= max_calls               → finalize 'budget_exhausted'.
 *   4. calls += 1, attempts += 1, save 'attempt_started' (before the request leaves!).
 *   5. this.authorize(task, pending), then this.execute(state).
 *      TransientError → if attempts > max_retries, status = 'retry_exhausted' (keep pending: the effect may
 *      have happened); save `transient:${error.message}`. ContractError → finalize 'tool_error' (never retry).
 *   6. success → observations[pending.name] = result, pending = null, save 'observed'.
 * Never make a new key or change the args of a pending action; never catch a crash.
 *
 * Check your work:  npm run grade            (all 17 scenarios, with hints)
 *                   npx faultlab run scenarios/lost_reply.yaml --runner learner
 * ─────────────────────────────────────────────────────────────────────────────────────────────────────────
 */
import { BaseRunner } from './BaseRunner.js';
import { NotImplementedError } from './errors.js';
import type { RunnerState } from './state.js';
// You will need these two type guards in step 5:
import { isContractError, isTransientError } from '../inventory/errors.js';

export class LearnerRunner extends BaseRunner {
  step(_state: RunnerState): RunnerState {
    throw new NotImplementedError('execute');
  }
}
