/**
 * Which lesson explains a failure. A broken rule points to the lesson (and section) that gives its reason;
 * a failure that is about the exercise itself (an exception, a hang, the contract of `step`) points to the
 * section of lesson 8 for that rule. Otherwise the scenario's own lesson. A test keeps every link pointing
 * at a file and a heading that exist.
 */
import type { ProblemId } from './types.js';

export const LESSON_FILES = {
  intents: '01-intents-attempts-effects.md',
  keys: '02-idempotency-keys.md',
  fingerprint: '03-fingerprint-and-version.md',
  transaction: '04-one-transaction.md',
  lostContact: '05-losing-contact-after-commit.md',
  errors: '06-which-errors-to-retry.md',
  retention: '07-receipt-retention.md',
  exercise: '08-the-exercise.md',
} as const;

const L = LESSON_FILES;

/** Sections of lesson 8 (headings of lessons/08-the-exercise.md; a test keeps them in step). */
export const EXERCISE_SECTIONS = {
  contract: 'the-contract-of-step',
  rule1: 'rule-1-a-finished-run-stays-finished',
  rule2: 'rule-2-decide-prepare-save',
  rule3: 'rule-3-check-the-budget-before-every-attempt',
  rule4: 'rule-4-count-the-attempt-and-save-it-before-the-request-leaves',
  rule5: 'rule-5-execute-and-sort-the-failure',
  rule6: 'rule-6-record-what-the-tool-answered',
  states: 'the-states-of-a-run',
  grader: 'reading-the-grader',
  guard: 'exceptions-hangs-and-the-determinism-guard',
} as const;

const exercise = (section: keyof typeof EXERCISE_SECTIONS) => `${L.exercise}#${EXERCISE_SECTIONS[section]}`;

const BY_PROBLEM: Partial<Record<ProblemId, string>> = {
  load_error: exercise('grader'),
  timeout: exercise('guard'),
  worker_crash: exercise('guard'),
  not_implemented: exercise('contract'),
  determinism: exercise('guard'),
  async_step: exercise('guard'),
  runner_error: exercise('guard'),
  process_died: exercise('guard'),
  not_explored: exercise('grader'),
  crash_caught: exercise('rule5'),
  new_key_per_attempt: `${L.keys}#reused-unchanged-by-every-retry`,
  args_changed_on_retry: `${L.fingerprint}#the-fingerprint-does-the-key-still-mean-the-same-request`,
  contract_error_retried: `${L.errors}#a-contract-error-does-not-get-better-with-time`,
  budget_checked_late: `${L.errors}#budgets-attempts-retries-and-calls`,
  saved_late: `${L.transaction}#the-gap-the-runners-save-is-another-transaction`,
  pending_dropped: `${L.lostContact}#example-1-the-reply-is-lost-the-retry-recovers-it`,
  lost_reply_as_failure: `${L.errors}#a-timeout-does-not-prove-that-nothing-happened`,
  inv1_one_effect_per_intent: L.keys,
  inv2_call_budget: `${L.errors}#budgets-attempts-retries-and-calls`,
  inv3_same_key_same_args: `${L.keys}#reused-unchanged-by-every-retry`,
  inv4_log_rebuilds_state: exercise('rule4'),
  inv5_contract_error_changes_nothing: `${L.errors}#a-contract-error-does-not-get-better-with-time`,
  inv6_success_has_receipt: L.lostContact,
  inv7_run_terminates: exercise('states'),
  reference_fails: exercise('grader'),
};

const BY_SCENARIO: Record<string, string> = {
  happy_path: L.intents,
  read_only: L.intents,
  transient_read: L.errors,
  transient_read_exhausted: L.errors,
  lost_reply: L.lostContact,
  lost_reply_no_retry: L.lostContact,
  crash_after_commit: L.lostContact,
  crash_before_commit: L.transaction,
  crash_after_prepared: L.keys,
  payload_conflict: L.fingerprint,
  stale_version: L.fingerprint,
  retry_after_version_moved: L.fingerprint,
  insufficient_stock: L.errors,
  unknown_item: L.errors,
  budget_exhausted: L.intents,
  policy_error: exercise('rule2'),
  unauthorized_action: exercise('rule2'),
};

/** The lesson for a failure (file, and section for lesson 8), relative to lessons/. */
export function lessonFor(problem: ProblemId | null, scenarioId: string): string {
  return (problem !== null ? BY_PROBLEM[problem] : undefined) ?? BY_SCENARIO[scenarioId] ?? L.exercise;
}
