/**
 * ─── The exercise: write LearnerRunner.step ──────────────────────────────────────────────────────────────
 * This is the one file you edit. Start with lessons/08-the-exercise.md; lessons 1–7 say why each guarantee
 * below matters.
 *
 * step(state) carries the run one move further and returns the state. The harness calls it until the status
 * is no longer 'running'. A crash can strike after any save and in the middle of any request; then a NEW
 * LearnerRunner resumes from the state rebuilt from the event log — only what you saved is there.
 *
 * What your step must guarantee (the grader checks all of it on the 17 scenarios and scenarios/graded/, then
 * again with one added fault at every point of each):
 *   - the run ends in the status that says what happened: succeeded or gave_up (as the policy finished),
 *     policy_error (its next action was invalid or not allowed), tool_error (the tool refused),
 *     retry_exhausted (a failure worth retrying went on failing past max_retries), budget_exhausted
 *     (max_calls spent);
 *   - the seven invariants (README, "The invariants"): at most one effect per intent; never more calls than
 *     max_calls, every attempt counted; every attempt of an action with the same key and args, and the action
 *     pending until its answer is saved; the event log rebuilds your state at any moment; a refusal changes
 *     nothing and is final; succeeded means you hold the receipt of every reserve; the run ends;
 *   - a crash is not yours to handle.
 *
 * Where to read: BaseRunner.ts (this.decide, this.prepare, this.authorize, this.execute, this.save,
 * this.finalize), state.ts (what the state holds), ../inventory/errors.ts (the two kinds of failure).
 *
 * Check your work:  npm run grade            (with a hint; npm run grade -- --hint 2 gives more)
 *                   npx faultlab run scenarios/lost_reply.yaml --runner learner
 * ─────────────────────────────────────────────────────────────────────────────────────────────────────────
 */
import { BaseRunner } from './BaseRunner.js';
import { NotImplementedError } from './errors.js';
import type { RunnerState } from './state.js';
// The two kinds of failure a request can end in (lesson 6): you will need to tell them apart.
import { isContractError, isTransientError } from '../inventory/errors.js';

export class LearnerRunner extends BaseRunner {
  step(_state: RunnerState): RunnerState {
    throw new NotImplementedError('execute');
  }
}
