/**
 * The hint ladder: three hints per kind of problem, each giving away a little more. Level 1 is a question
 * that points at the right place; level 2 names the rule and where it lives in the contract; level 3 is
 * close to the code. The grader shows level 1, and `--hint 2` / `--hint 3` climb the ladder. A hint's lines
 * that start with two spaces are code, shown as written. The hints themselves are in the catalogues
 * (src/render/words/<lang>/hint.ts), written for each language by a teacher of it.
 */
import { t, type Lang, type MessageKey } from '../render/words/index.js';
import type { ProblemId } from './types.js';

export const HINT_LEVELS = 3;

/** The base of each ladder's keys in the hint catalogue (`hint.<base>.question`, `.rule`, `.code`). */
type HintBase = MessageKey extends infer K ? (K extends `hint.${infer B}.question` ? B : never) : never;

const LADDERS: Record<ProblemId, HintBase> = {
  not_implemented: 'notImplemented',
  runner_error: 'runnerError',
  determinism: 'determinism',
  timeout: 'timeout',
  worker_crash: 'workerCrash',
  process_died: 'processDied',
  not_explored: 'notExplored',
  crash_caught: 'crashCaught',
  new_key_per_attempt: 'newKeyPerAttempt',
  args_changed_on_retry: 'argsChangedOnRetry',
  contract_error_retried: 'contractErrorRetried',
  budget_checked_late: 'budgetCheckedLate',
  saved_late: 'savedLate',
  pending_dropped: 'pendingDropped',
  cleared_after_save: 'clearedAfterSave',
  lost_reply_as_failure: 'lostReplyAsFailure',
  finish_status_changed: 'finishStatusChanged',
  attempts_not_reset: 'attemptsNotReset',
  not_reauthorised: 'notReauthorised',
  transient_by_message: 'transientByMessage',
  transient_thrown: 'transientThrown',
  budget_after_prepare: 'budgetAfterPrepare',
  load_error: 'loadError',
  inv1_one_effect_per_intent: 'inv1OneEffectPerIntent',
  inv2_call_budget: 'inv2CallBudget',
  inv3_same_key_same_args: 'inv3SameKeySameArgs',
  inv4_log_rebuilds_state: 'inv4LogRebuildsState',
  inv5_contract_error_changes_nothing: 'inv5ContractErrorChangesNothing',
  inv6_success_has_receipt: 'inv6SuccessHasReceipt',
  inv7_run_terminates: 'inv7RunTerminates',
  inv8_one_live_holder: 'inv8OneLiveHolder',
  inv9_token_plus_one: 'inv9TokenPlusOne',
  inv10_no_stale_token: 'inv10NoStaleToken',
  inv11_finished_stays_finished: 'inv11FinishedStaysFinished',
  inv12_budgets_across_workers: 'inv12BudgetsAcrossWorkers',
  inv13_no_stranded_task: 'inv13NoStrandedTask',
  workers: 'workers',
  status: 'status',
  calls: 'calls',
  ledger: 'ledger',
  stock: 'stock',
  pending: 'pending',
  observations: 'observations',
  fault_not_reached: 'faultNotReached',
  reference_fails: 'referenceFails',
};

const LEVELS = ['question', 'rule', 'code'] as const;

/** Every kind of problem the grader can report: each has its ladder. */
export const PROBLEM_IDS = Object.keys(LADDERS) as ProblemId[];

/** The hints for a problem, from level 1 up to `level` (1–3). */
export function hintsFor(lang: Lang, problem: ProblemId, level: number): string[] {
  const base = LADDERS[problem];
  return LEVELS.slice(0, Math.max(1, Math.min(HINT_LEVELS, level))).map((at) => t(lang, `hint.${base}.${at}` as MessageKey));
}
