/** The summary table at the end of `faultlab run`. */
export const summary = {
  'summary.head.scenario': 'scenario',
  'summary.head.status': 'status',
  'summary.head.calls': 'calls',
  'summary.head.ledger': 'ledger',
  'summary.head.stock': 'stock',
  'summary.head.result': 'result',
  'summary.pass': '✔ pass',
  'summary.broken': '✘ broken',
  'summary.fail': '✘ fail',
  'summary.tally': '{passed} passed, {failed} failed',
} as const;
