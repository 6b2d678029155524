/** The mutants' mistakes (src/mutants/catalogue.ts), one sentence each, as the explorer shows them. */
export const mutant = {
  'mutant.new_key_per_attempt': 'makes a fresh idempotency key on every attempt, so a retry looks like a new intent to the ledger',
  'mutant.version_before_ledger': 'the store checks the version before the ledger, so a faithful retry after a lost reply is refused as stale',
  'mutant.receipt_outside_transaction': 'the store commits the stock update and writes the receipt in a second transaction',
  'mutant.contract_error_retried': 'retries a ContractError as if it were transient',
  'mutant.no_budget_check': 'never checks the call budget before an attempt',
  'mutant.pending_dropped_after_transient': 'forgets the pending action after a transient failure and moves on to the next decision',
  'mutant.exhausted_reissued_with_new_key': 'when retries run out, re-issues the reserve as a new intent under a new key instead of stopping',
  'mutant.observation_saved_before_commit': "saves the action as observed before the tool's commit, so a crash in between loses the effect but not the 'done'",
  'mutant.finish_not_saved': 'sets the final status in memory without saving it, so a recovery would run the task again',
  'mutant.waits_for_lost_reply': 'after a crash with an attempt in flight, waits for that reply forever instead of retrying',
} as const;
