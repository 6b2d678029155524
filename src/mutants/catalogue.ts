/**
 * The mutants: deliberately broken runners and stores, each one classic mistake. They exist to prove that
 * the checks can fail — every mutant must be caught by some invariant, and every invariant must catch
 * some mutant (docs/spec.md §7: "a check that cannot fail is a defect").
 */
import type { ToolDeps } from '../inventory/InventoryTool.js';
import { InventoryTool } from '../inventory/InventoryTool.js';
import type { RunnerClass } from '../runner/BaseRunner.js';
import { ReferenceRunner } from '../runner/ReferenceRunner.js';
import { FlawedRunner, type Flaws } from './FlawedRunner.js';
import {
  DeadlineIgnoredStore,
  FinishedTasksIgnoredStore,
  OutboxOutsideTransactionStore,
  PurgedKeysForgottenStore,
  ReceiptOutsideTransactionStore,
  ShortRetentionStore,
  UnrecordedCompensationStore,
  VersionBeforeLedgerStore,
} from './flawedStores.js';
import { CompletionByIdQueue, DeferredUpgradeQueue, LeaseCheckingWorker, NoFenceCheckQueue, RescueOverwritesDoneQueue, TokenComparedLeQueue } from './queueStores.js';
import type { QueueClass } from '../queue/QueueStore.js';
import type { WorkerClass } from '../runner/ReferenceWorker.js';
import { message, type Message } from '../core/message.js';
import type { MutantCode } from './codes.js';

export interface Mutant {
  name: string;
  /** The mistake, in one sentence a learner would recognise (a message). */
  readonly description: Message<MutantCode>;
  runner: RunnerClass;
  tool: new (deps: ToolDeps) => InventoryTool;
  /** The invariant that catches it on a fixed scenario, and that scenario. */
  caughtBy: { invariant: `inv${number}_${string}`; scenario: string };
  /** A broken queue (many workers): the store claims, guards and sweeps go through. */
  queue?: QueueClass;
  /** A broken worker loop (many workers). */
  worker?: WorkerClass;
}

function flawed(name: string, flaws: Flaws): RunnerClass {
  const cls = class extends FlawedRunner {
    protected readonly flaws = flaws;
  };
  Object.defineProperty(cls, 'name', { value: name });
  return cls;
}

/** The mutant of that name (the chapter's, the queue's or the limits'), or undefined. */
export function mutantNamed(name: string): Mutant | undefined {
  return MUTANTS.find((m) => m.name === name) ?? QUEUE_MUTANTS.find((m) => m.name === name) ?? LIMIT_MUTANTS.find((m) => m.name === name);
}

export const MUTANTS: readonly Mutant[] = [
  {
    name: 'new_key_per_attempt',
    description: message('mutant.new_key_per_attempt'),
    runner: flawed('NewKeyPerAttemptRunner', { newKeyPerAttempt: true }),
    tool: InventoryTool,
    caughtBy: { invariant: 'inv3_same_key_same_args', scenario: 'lost_reply' },
  },
  {
    name: 'version_before_ledger',
    description: message('mutant.version_before_ledger'),
    runner: ReferenceRunner,
    tool: VersionBeforeLedgerStore,
    caughtBy: { invariant: 'inv5_contract_error_changes_nothing', scenario: 'lost_reply' },
  },
  {
    name: 'receipt_outside_transaction',
    description: message('mutant.receipt_outside_transaction'),
    runner: ReferenceRunner,
    tool: ReceiptOutsideTransactionStore,
    caughtBy: { invariant: 'inv1_one_effect_per_intent', scenario: 'crash_before_commit' },
  },
  {
    name: 'contract_error_retried',
    description: message('mutant.contract_error_retried'),
    runner: flawed('ContractErrorRetriedRunner', { retryContractErrors: true }),
    tool: InventoryTool,
    caughtBy: { invariant: 'inv5_contract_error_changes_nothing', scenario: 'stale_version' },
  },
  {
    name: 'no_budget_check',
    description: message('mutant.no_budget_check'),
    runner: flawed('NoBudgetCheckRunner', { noBudgetCheck: true }),
    tool: InventoryTool,
    caughtBy: { invariant: 'inv2_call_budget', scenario: 'budget_exhausted' },
  },
  {
    name: 'pending_dropped_after_transient',
    description: message('mutant.pending_dropped_after_transient'),
    runner: flawed('PendingDroppedRunner', { dropPendingAfterTransient: true }),
    tool: InventoryTool,
    caughtBy: { invariant: 'inv6_success_has_receipt', scenario: 'lost_reply' },
  },
  {
    name: 'exhausted_reissued_with_new_key',
    description: message('mutant.exhausted_reissued_with_new_key'),
    runner: flawed('ReissueExhaustedRunner', { reissueExhaustedWithNewKey: true }),
    tool: InventoryTool,
    caughtBy: { invariant: 'inv3_same_key_same_args', scenario: 'lost_reply_no_retry' },
  },
  {
    name: 'observation_saved_before_commit',
    description: message('mutant.observation_saved_before_commit'),
    runner: flawed('ObservationFirstRunner', { saveObservationBeforeCommit: true }),
    tool: InventoryTool,
    caughtBy: { invariant: 'inv6_success_has_receipt', scenario: 'crash_before_commit' },
  },
  {
    name: 'finish_not_saved',
    description: message('mutant.finish_not_saved'),
    runner: flawed('FinishNotSavedRunner', { finishNotSaved: true }),
    tool: InventoryTool,
    caughtBy: { invariant: 'inv4_log_rebuilds_state', scenario: 'happy_path' },
  },
  {
    name: 'waits_for_lost_reply',
    description: message('mutant.waits_for_lost_reply'),
    runner: flawed('WaitForeverRunner', { waitForInFlightReply: true }),
    tool: InventoryTool,
    caughtBy: { invariant: 'inv7_run_terminates', scenario: 'crash_after_commit' },
  },
];

/**
 * The queue's mutants (many workers, docs/spec.md §12): each breaks one rule of src/queue/QueueStore.ts or of the
 * worker's loop, and is caught on a scenario of scenarios/workers by one of the queue's invariants. They meet the
 * chapter's runner and tool; on the 17 (one runner, no queue) they are the reference.
 */
export const QUEUE_MUTANTS: readonly Mutant[] = [
  {
    name: 'no_fence_check',
    description: message('mutant.no_fence_check'),
    runner: ReferenceRunner,
    tool: InventoryTool,
    queue: NoFenceCheckQueue,
    caughtBy: { invariant: 'inv12_budgets_across_workers', scenario: 'zombie_redoes_work' },
  },
  {
    name: 'token_compared_le',
    description: message('mutant.token_compared_le'),
    runner: ReferenceRunner,
    tool: InventoryTool,
    queue: TokenComparedLeQueue,
    caughtBy: { invariant: 'inv13_no_stranded_task', scenario: 'double_claim_race' },
  },
  {
    name: 'worker_checks_lease',
    description: message('mutant.worker_checks_lease'),
    runner: ReferenceRunner,
    tool: InventoryTool,
    queue: NoFenceCheckQueue,
    worker: LeaseCheckingWorker,
    caughtBy: { invariant: 'inv10_no_stale_token', scenario: 'lease_expires_before_reserve' },
  },
  {
    name: 'completion_by_id_only',
    description: message('mutant.completion_by_id_only'),
    runner: ReferenceRunner,
    tool: InventoryTool,
    queue: CompletionByIdQueue,
    caughtBy: { invariant: 'inv11_finished_stays_finished', scenario: 'stale_completion_after_reclaim' },
  },
  {
    name: 'rescue_overwrites_done',
    description: message('mutant.rescue_overwrites_done'),
    runner: ReferenceRunner,
    tool: InventoryTool,
    queue: RescueOverwritesDoneQueue,
    caughtBy: { invariant: 'inv11_finished_stays_finished', scenario: 'rescuer_races_completion' },
  },
  {
    name: 'deferred_upgrade',
    description: message('mutant.deferred_upgrade'),
    runner: ReferenceRunner,
    tool: InventoryTool,
    queue: DeferredUpgradeQueue,
    caughtBy: { invariant: 'inv8_one_live_holder', scenario: 'deferred_upgrade_busy' },
  },
];

/**
 * The limits' mutants (docs/spec.md §13–§14): one per rule a scenario past the chapter switches on, each a
 * broken store. They are hunted over those scenarios (scenarios/limits/), where their rule is on — over the 17
 * there is nothing for them to break, so `faultlab explore --mutants` with no scenario named hunts the chapter's
 * ten and the queue's six, not these.
 */
export const LIMIT_MUTANTS: readonly Mutant[] = [
  {
    name: 'no_deadline_check',
    description: message('limits.mutant.no_deadline_check'),
    runner: ReferenceRunner,
    tool: DeadlineIgnoredStore,
    caughtBy: { invariant: 'inv14_one_effect_in_history', scenario: 'purge_late_task_deadline' },
  },
  {
    name: 'retention_shorter_than_redelivery',
    description: message('limits.mutant.retention_shorter_than_redelivery'),
    runner: ReferenceRunner,
    tool: ShortRetentionStore,
    caughtBy: { invariant: 'inv14_one_effect_in_history', scenario: 'purge_receipts_outlive_requests' },
  },
  {
    name: 'purged_keys_forgotten',
    description: message('limits.mutant.purged_keys_forgotten'),
    runner: ReferenceRunner,
    tool: PurgedKeysForgottenStore,
    caughtBy: { invariant: 'inv5_contract_error_changes_nothing', scenario: 'purge_late_retry_tombstone' },
  },
  {
    name: 'finished_tasks_ignored',
    description: message('limits.mutant.finished_tasks_ignored'),
    runner: ReferenceRunner,
    tool: FinishedTasksIgnoredStore,
    caughtBy: { invariant: 'inv14_one_effect_in_history', scenario: 'purge_task_replayed_finished_tasks' },
  },
  {
    name: 'outbox_outside_transaction',
    description: message('limits.mutant.outbox_outside_transaction'),
    runner: ReferenceRunner,
    tool: OutboxOutsideTransactionStore,
    caughtBy: { invariant: 'inv15_intent_ends_whole', scenario: 'remote_outbox_crash_mid_reserve' },
  },
  {
    name: 'compensation_not_recorded',
    description: message('limits.mutant.compensation_not_recorded'),
    runner: ReferenceRunner,
    tool: UnrecordedCompensationStore,
    caughtBy: { invariant: 'inv1_one_effect_per_intent', scenario: 'remote_compensation_declined' },
  },
];
