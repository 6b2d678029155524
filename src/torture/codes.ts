/**
 * The messages of `faultlab torture`'s engine (src/torture): the checks it makes on the database file after every
 * kill and at the end, each with its title and what it found when it breaks, and a worker that broke off. The
 * catalogues (src/render/words) word them.
 */
export const TORTURE_CODES = [
  'torture.check.integrity.title',
  'torture.check.integrity.broken',
  'torture.check.double_effects.title',
  'torture.check.double_effects.found',
  'torture.check.ledger_is_effects.title',
  'torture.check.ledger_is_effects.found',
  'torture.check.lost_intents.title',
  'torture.check.lost_intents.unfinished',
  'torture.check.lost_intents.noReceipt',
  'torture.check.lost_intents.missing',
  'torture.check.lost_intents.failedWithEffect',
  'torture.check.lost_intents.logDisagrees',
  'torture.check.fence.title',
  'torture.check.fence.finishedStale',
  'torture.check.fence.logBackwards',
  'torture.check.fence.sharedToken',
  'torture.check.fence.reopened',
  'torture.worker.stepBound',
] as const;

export type TortureCode = (typeof TORTURE_CODES)[number];
