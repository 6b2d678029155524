/**
 * Which lesson explains a failure. A broken rule points to the lesson (and section) that gives its reason;
 * a failure that is about the exercise itself (an exception, a hang, the contract of `step`) points to the
 * section of lesson 8 for that rule. Otherwise the scenario's own lesson. In Chinese the link is to the Chinese
 * lesson (lessons/zh/, same file names, its own headings). A test keeps every link, in both languages, pointing
 * at a file and a heading that exist.
 */
import type { Lang } from '../core/lang.js';
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
  leases: '09-leases-and-fencing-tokens.md',
  zombies: '10-zombies-and-real-kills.md',
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

/** The same sections in the Chinese lesson 8 (lessons/zh/08-the-exercise.md; the same test keeps them in step). */
export const ZH_EXERCISE_SECTIONS: Record<keyof typeof EXERCISE_SECTIONS, string> = {
  contract: 'step-的契约',
  rule1: '规则-1结束了的运行就保持结束',
  rule2: '规则-2决定准备保存',
  rule3: '规则-3每次尝试之前检查预算',
  rule4: '规则-4计数并在请求发出之前保存',
  rule5: '规则-5执行并给失败归类',
  rule6: '规则-6记下工具的回答',
  states: '一次运行的各个状态',
  grader: '读懂评分器',
  guard: '异常卡死与确定性守卫',
};

/** The sections of lessons 2 to 6 a mistake points at, by their anchor in each language. */
const SECTIONS = {
  claim: { en: 'the-claim-one-transaction-one-token', zh: '认领一个事务一个令牌' },
  liveness: { en: 'a-lease-is-liveness-a-token-is-safety', zh: '租约管活性令牌管安全' },
  everyWrite: { en: 'every-write-carries-the-token', zh: '每一次写入都带着令牌' },
  zombie: { en: 'a-zombie-in-the-middle-of-the-work', zh: '工作中途的僵尸' },
  secondExercise: { en: 'the-second-exercise-write-the-queue-yourself', zh: '第二个练习自己写队列' },
  reusedKey: { en: 'reused-unchanged-by-every-retry', zh: '每次重试都原样沿用' },
  fingerprint: { en: 'the-fingerprint-does-the-key-still-mean-the-same-request', zh: '参数指纹这个键还指同一个请求吗' },
  contractError: { en: 'a-contract-error-does-not-get-better-with-time', zh: '契约错误不会随时间变好' },
  budgets: { en: 'budgets-attempts-retries-and-calls', zh: '预算尝试重试与调用' },
  gap: { en: 'the-gap-the-runners-save-is-another-transaction', zh: '空窗runner-的保存是另一个事务' },
  lostReplyRecovered: { en: 'example-1-the-reply-is-lost-the-retry-recovers-it', zh: '算例一回复丢失重试把它找回来' },
  timeout: { en: 'a-timeout-does-not-prove-that-nothing-happened', zh: '超时不能证明什么都没发生' },
} as const satisfies Record<string, Record<Lang, string>>;

type Section = keyof typeof SECTIONS | `exercise.${keyof typeof EXERCISE_SECTIONS}`;

/** A lesson, and the section of it to open (none: the whole lesson). */
type Target = readonly [file: string, section?: Section];

const exercise = (section: keyof typeof EXERCISE_SECTIONS): Target => [L.exercise, `exercise.${section}`];

const BY_PROBLEM: Partial<Record<ProblemId, Target>> = {
  load_error: exercise('grader'),
  timeout: exercise('guard'),
  worker_crash: exercise('guard'),
  not_implemented: exercise('contract'),
  determinism: exercise('guard'),
  runner_error: exercise('guard'),
  process_died: exercise('guard'),
  not_explored: exercise('grader'),
  crash_caught: exercise('rule5'),
  new_key_per_attempt: [L.keys, 'reusedKey'],
  args_changed_on_retry: [L.fingerprint, 'fingerprint'],
  contract_error_retried: [L.errors, 'contractError'],
  budget_checked_late: [L.errors, 'budgets'],
  saved_late: [L.transaction, 'gap'],
  pending_dropped: [L.lostContact, 'lostReplyRecovered'],
  lost_reply_as_failure: [L.errors, 'timeout'],
  cleared_after_save: exercise('rule6'),
  finish_status_changed: exercise('rule2'),
  attempts_not_reset: exercise('rule2'),
  not_reauthorised: exercise('rule5'),
  transient_by_message: exercise('rule5'),
  transient_thrown: exercise('rule5'),
  budget_after_prepare: exercise('rule2'),
  inv1_one_effect_per_intent: [L.keys],
  inv2_call_budget: [L.errors, 'budgets'],
  inv3_same_key_same_args: [L.keys, 'reusedKey'],
  inv4_log_rebuilds_state: exercise('rule4'),
  inv5_contract_error_changes_nothing: [L.errors, 'contractError'],
  inv6_success_has_receipt: [L.lostContact],
  inv7_run_terminates: exercise('states'),
  inv8_one_live_holder: [L.leases, 'claim'],
  inv9_token_plus_one: [L.leases, 'claim'],
  inv10_no_stale_token: [L.leases, 'everyWrite'],
  inv11_finished_stays_finished: [L.leases, 'everyWrite'],
  inv12_budgets_across_workers: [L.zombies, 'zombie'],
  inv13_no_stranded_task: [L.leases, 'liveness'],
  workers: [L.leases],
  reference_fails: exercise('grader'),
};

const BY_SCENARIO: Record<string, Target> = {
  happy_path: [L.intents],
  read_only: [L.intents],
  transient_read: [L.errors],
  transient_read_exhausted: [L.errors],
  lost_reply: [L.lostContact],
  lost_reply_no_retry: [L.lostContact],
  crash_after_commit: [L.lostContact],
  crash_before_commit: [L.transaction],
  crash_after_prepared: [L.keys],
  payload_conflict: [L.fingerprint],
  stale_version: [L.fingerprint],
  retry_after_version_moved: [L.fingerprint],
  insufficient_stock: [L.errors],
  unknown_item: [L.errors],
  budget_exhausted: [L.intents],
  policy_error: exercise('rule2'),
  unauthorized_action: exercise('rule2'),
  policy_gives_up: exercise('rule2'),
  breaker_refuses_attempt: exercise('rule5'),
  permission_revoked_before_retry: exercise('rule5'),
  double_claim_race: [L.leases, 'claim'],
  zombie_after_pause: [L.zombies, 'zombie'],
  crash_after_commit_other_worker: [L.leases],
  stale_completion_after_reclaim: [L.leases, 'everyWrite'],
  rescuer_races_completion: [L.leases, 'everyWrite'],
  lost_claim_reply: [L.leases, 'claim'],
  deferred_upgrade_busy: [L.leases, 'claim'],
  lease_expires_before_reserve: [L.leases, 'everyWrite'],
  zombie_redoes_work: [L.zombies, 'zombie'],
};

/** The many-worker scenarios: graded for the second exercise (src/runner/LearnerWorker.ts). */
const WORKER_SCENARIOS = new Set(['double_claim_race', 'zombie_after_pause', 'crash_after_commit_other_worker', 'stale_completion_after_reclaim', 'rescuer_races_completion', 'lost_claim_reply', 'deferred_upgrade_busy', 'lease_expires_before_reserve', 'zombie_redoes_work']);

function anchor(section: Section, lang: Lang): string {
  if (section.startsWith('exercise.')) {
    const key = section.slice('exercise.'.length) as keyof typeof EXERCISE_SECTIONS;
    return lang === 'zh' ? ZH_EXERCISE_SECTIONS[key] : EXERCISE_SECTIONS[key];
  }
  return SECTIONS[section as keyof typeof SECTIONS][lang];
}

/**
 * The lesson for a failure (file, and section), relative to lessons/: in Chinese, the Chinese lesson
 * (`zh/02-idempotency-keys.md#每次重试都原样沿用`), which has the same file name and its own headings.
 */
export function lessonFor(problem: ProblemId | null, scenarioId: string, lang: Lang): string {
  let [file, section] = (problem !== null ? BY_PROBLEM[problem] : undefined) ?? BY_SCENARIO[scenarioId] ?? [L.exercise];
  // On a many-worker scenario the exercise is the second one: what lesson 8 says of the first, lesson 9 says of it.
  if (file === L.exercise && WORKER_SCENARIOS.has(scenarioId)) [file, section] = [L.leases, 'secondExercise'];
  const path = lang === 'en' ? file : `${lang}/${file}`;
  return section === undefined ? path : `${path}#${anchor(section, lang)}`;
}
