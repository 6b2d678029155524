/**
 * Which schedules to run. Depth 1: one added fault at every point of the scenario's own run — every
 * attempt fault at every call (and, as the Python baseline does, two calls past the last, which can never
 * fire and so show up in the coverage as faults that did not fire), and a crash after every persisted event.
 * Depth 2: for each depth-1 run in which its fault fired, a second fault at every point of THAT run from
 * the first fault's point on (see timeline.ts): every pair of faults that can both fire, each exactly once.
 */
import type { FaultPoint, FaultSpec } from '../faults/types.js';
import { ATTEMPT_FAULT_KINDS, type AttemptFaultKind } from '../faults/types.js';
import type { RunResult } from '../check/RunResult.js';
import { attemptFault, eventCrash, leaseExpires, workerPause } from './schedule.js';
import { firedPosition, reach, timeline } from './timeline.js';

/** Calls past the base run's last call that depth 1 still tries (the baseline's figure; docs/spec.md §5 "added faults add calls"). */
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
 * first's in docs/spec.md §5 order, so each pair is run once. Empty when `first` never took effect.
 */
export function secondFaults(run: RunResult, first: FaultSpec, index: number): FaultSpec[] {
  const from = firedPosition(run, index);
  if (from === null) return [];
  const rank = (fault: FaultSpec) => (fault.kind === 'crash_after_event' ? -1 : ATTEMPT_FAULT_KINDS.indexOf(fault.kind as AttemptFaultKind));
  return timeline(run)
    .filter((point) => point.position > from || (point.position === from && rank(point.fault) > rank(first)))
    .map((point) => point.fault);
}

/**
 * Many workers: at every point of a worker's loop the scenario's own run reached — right after each of its
 * grants, before each of its requests, before each finish — the worker stalls until its lease has expired and
 * the task been granted to another, then goes on at once (`lease_expires`: a zombie racing the new holder); and,
 * separately, it stops for three leases (`worker_pause`: a zombie that comes back after the other got on with
 * it) — docs/spec.md §11.
 */
export function workerFaults(base: RunResult): FaultSpec[][] {
  const workers = base.workers;
  if (workers === undefined) return [];
  const ms = ZOMBIE_LEASES * workers.leaseMs;
  const points: Array<{ worker: string; at: Omit<FaultPoint, 'worker'> }> = [];
  const grants = new Map<string, number>();
  for (const event of base.trace) {
    const worker = event.worker;
    if (worker === undefined || !workers.names.includes(worker)) continue;
    if (event.type === 'claim' && event.granted !== null) {
      grants.set(worker, event.granted.grant);
      points.push({ worker, at: { point: 'claimed', grant: event.granted.grant } });
    } else if (event.type === 'request' && event.by === 'runner' && event.delivery === undefined && event.call !== undefined) {
      points.push({ worker, at: { point: 'request', call: event.call } });
    } else if (event.type === 'holder' && (event.op === 'complete' || event.op === 'fail')) {
      points.push({ worker, at: { point: 'finish', grant: grants.get(worker)! } });
    }
  }
  return points.flatMap(({ worker, at }) => [[leaseExpires(worker, at)], [workerPause(worker, at, ms)]]);
}

/** How long an explored worker_pause lasts, in leases (the zombie scenarios of scenarios/workers pause three). */
export const ZOMBIE_LEASES = 3;
