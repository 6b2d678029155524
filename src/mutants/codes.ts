/** The mutants' mistakes (catalogue.ts: the chapter's, then the queue's), one message each. The catalogues (src/render/words) word them. */
export const MUTANT_CODES = [
  'mutant.new_key_per_attempt',
  'mutant.version_before_ledger',
  'mutant.receipt_outside_transaction',
  'mutant.contract_error_retried',
  'mutant.no_budget_check',
  'mutant.pending_dropped_after_transient',
  'mutant.exhausted_reissued_with_new_key',
  'mutant.observation_saved_before_commit',
  'mutant.finish_not_saved',
  'mutant.waits_for_lost_reply',
  'mutant.no_fence_check',
  'mutant.token_compared_le',
  'mutant.worker_checks_lease',
  'mutant.completion_by_id_only',
  'mutant.rescue_overwrites_done',
  'mutant.deferred_upgrade',
  // the limits' broken stores (LIMIT_MUTANTS): docs/spec.md §13–§15
  'limits.mutant.no_deadline_check',
  'limits.mutant.retention_shorter_than_redelivery',
  'limits.mutant.purged_keys_forgotten',
  'limits.mutant.finished_tasks_ignored',
  'limits.mutant.outbox_outside_transaction',
  'limits.mutant.compensation_not_recorded',
] as const;

export type MutantCode = (typeof MUTANT_CODES)[number];
