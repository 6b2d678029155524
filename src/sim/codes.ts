/**
 * The messages of the harness (src/sim): where a simulated crash struck, what a runner did with one, a step
 * that returned no state, a kept run with no event log. The catalogues (src/render/words) word them.
 */
export const SIM_CODES = [
  'trace.crash.beforeRan',
  'trace.crash.afterCommit',
  'trace.crash.afterAnswer',
  'trace.crash.midway',
  'trace.crash.inTransaction',
  'trace.crash.afterEvent',
  'trace.crashCaught.returned',
  'trace.crashCaught.threw',
  'trace.stepReturned',
  'trace.stepReturnedUndefined',
  'trace.threwNonError',
  'target.noEventsDb',
  // many workers (src/sim/workers): where a worker's process died — a worker_crash, a crash after its event
  'workers.crash.processDies',
  'workers.crash.afterEvent',
] as const;

export type SimCode = (typeof SIM_CODES)[number];
