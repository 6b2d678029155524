/**
 * A schedule is the list of faults the explorer adds on top of a scenario's own. Depth 1 adds one fault,
 * depth 2 two. Each added fault names its point by the global call number (attempt faults) or by the
 * event's number in the log (crash_after_event), so a schedule is exact and can be written as YAML.
 */
import type { FaultKind, FaultPoint, FaultSpec } from '../faults/types.js';
import type { ScheduleChoice } from '../scenario/types.js';
import { ATTEMPT_FAULT_KINDS, describeFault } from '../faults/types.js';
import { canonicalJson } from '../core/canonical.js';
import { t, word, type Lang } from '../render/words/index.js';

export type Schedule = readonly FaultSpec[];

/** Every kind the explorer adds, in the order docs/spec.md §5 applies them at one attempt, then the crash after an event. */
export const EXPLORED_KINDS: readonly FaultKind[] = [...ATTEMPT_FAULT_KINDS, 'crash_after_event'];

/** Many workers: the worker fault the explorer adds at every point of each worker's loop (enumerate.ts). */
export const EXPLORED_WORKER_KINDS: readonly FaultKind[] = ['lease_expires', 'worker_pause'];

/** One string per schedule: equal schedules (whatever the order of their faults) get the same key. */
export function scheduleKey(schedule: Schedule): string {
  return schedule.map((fault) => canonicalJson(fault)).sort().join('|');
}

export function describeSchedule(lang: Lang, schedule: Schedule): string {
  return schedule.length === 0 ? t(lang, 'explore.noAddedFault') : schedule.map((fault) => word(lang, describeFault(fault))).join(' + ');
}

/** A schedule of many workers in words: `choice 10 → sweeper, choice 12 → w1`. */
export function describeChoices(lang: Lang, schedule: readonly ScheduleChoice[]): string {
  return schedule.map((entry) => t(lang, 'explore.choice', { choice: entry.choice, run: entry.run })).join(t(lang, 'cli.listSep'));
}

export function attemptFault(kind: FaultKind, call: number): FaultSpec {
  return { kind, at: { call } };
}

export function eventCrash(seq: number): FaultSpec {
  return { kind: 'crash_after_event', at: { seq } };
}

export function workerPause(worker: string, at: Omit<FaultPoint, 'worker'>, ms: number): FaultSpec {
  return { kind: 'worker_pause', at: { worker, ...at }, ms };
}

export function leaseExpires(worker: string, at: Omit<FaultPoint, 'worker'>): FaultSpec {
  return { kind: 'lease_expires', at: { worker, ...at } };
}
