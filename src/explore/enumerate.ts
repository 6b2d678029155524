/**
 * Which schedules to run. Depth 1: one added fault at every point of the scenario's own run — every
 * attempt fault at every call (and, as the Python baseline does, two calls past the last, which can never
 * fire and so show up in the coverage as faults that did not fire), and a crash after every persisted event.
 * Depth 2: for each depth-1 run in which its fault fired, a second fault at every point of THAT run from
 * the first fault's point on (see timeline.ts): every pair of faults that can both fire, each exactly once.
 */
import type { FaultSpec } from '../faults/types.js';
import { ATTEMPT_FAULT_KINDS, type AttemptFaultKind } from '../faults/types.js';
import type { RunResult } from '../check/RunResult.js';
import { attemptFault, eventCrash } from './schedule.js';
import { firedPosition, reach, timeline } from './timeline.js';

/** Calls past the base run's last call that depth 1 still tries (the baseline's figure; SPEC §5 "added faults add calls"). */
export const CALLS_PAST_THE_END = 2;

export function depthOneSchedules(base: RunResult, callsPastTheEnd = CALLS_PAST_THE_END): FaultSpec[][] {
  const { calls, events } = reach(base);
  const schedules: FaultSpec[][] = [];
  for (let call = 1; call <= calls + callsPastTheEnd; call += 1) {
    for (const kind of ATTEMPT_FAULT_KINDS) schedules.push([attemptFault(kind, call)]);
  }
  for (let seq = 1; seq <= events; seq += 1) schedules.push([eventCrash(seq)]);
  return schedules;
}

/**
 * The second faults to add to `run`, the run of the scenario with `first` added (at plan index `index`):
 * every point at or after the one where `first` fired. At the very same attempt only kinds that come after
 * first's in SPEC §5 order, so each pair is run once. Empty when `first` never took effect.
 */
export function secondFaults(run: RunResult, first: FaultSpec, index: number): FaultSpec[] {
  const from = firedPosition(run, index);
  if (from === null) return [];
  const rank = (fault: FaultSpec) => (fault.kind === 'crash_after_event' ? -1 : ATTEMPT_FAULT_KINDS.indexOf(fault.kind as AttemptFaultKind));
  return timeline(run)
    .filter((point) => point.position > from || (point.position === from && rank(point.fault) > rank(first)))
    .map((point) => point.fault);
}
