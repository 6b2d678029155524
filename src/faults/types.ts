/**
 * The fault catalogue of SPEC §5. A fault names a kind and a point; the harness consults the plan at
 * that point and records what fired.
 */
import { t } from '../core/i18n/index.js';
export const ATTEMPT_FAULT_KINDS = [
  'concurrent_reserve',
  'transient',
  'crash_before_commit',
  'duplicate_delivery',
  'crash_after_commit',
  'lost_reply',
] as const;
/** Listed in the order they apply when several hit one attempt (SPEC §5). */
export type AttemptFaultKind = (typeof ATTEMPT_FAULT_KINDS)[number];
/**
 * A worker's own faults, in many-worker scenarios (docs/spec.md §11): each strikes one named worker at a point of
 * its loop (WorkerPointName).
 * - worker_pause: the worker stops for `ms` (a GC pause, a SIGSTOP) and goes on from there — a zombie if its lease
 *   was taken meanwhile;
 * - worker_crash: the worker's process dies there (its connection closed), and starts again after the restart time;
 * - lease_expires: the worker stalls there until its lease has expired, then `ms` more (by default one sweep and
 *   one poll: long enough for the task to be swept and granted again) — between what it read and what it writes;
 * - heartbeat_starved: from there, the worker renews nothing for `ms` while it goes on working;
 * - claim_reply_lost: the worker's claim commits its grant, and the reply never reaches it.
 */
export const WORKER_FAULT_KINDS = ['worker_pause', 'worker_crash', 'lease_expires', 'heartbeat_starved', 'claim_reply_lost'] as const;
export type WorkerFaultKind = (typeof WORKER_FAULT_KINDS)[number];
export type FaultKind = AttemptFaultKind | 'crash_after_event' | WorkerFaultKind;
export const FAULT_KINDS: readonly FaultKind[] = [...ATTEMPT_FAULT_KINDS, 'crash_after_event', ...WORKER_FAULT_KINDS];

/**
 * Where in its loop a worker fault strikes: right after a grant reached it (between the claim and the start of
 * the task), before one of its runner's requests leaves, right after a line of the task's log committed, or
 * before it completes or fails the task. `claim_reply_lost` strikes the claim itself.
 */
export const WORKER_POINTS = ['claimed', 'request', 'saved', 'finish'] as const;
export type WorkerPointName = (typeof WORKER_POINTS)[number];

export function isWorkerFault(kind: FaultKind): kind is WorkerFaultKind {
  return (WORKER_FAULT_KINDS as readonly string[]).includes(kind);
}

/**
 * Where a fault strikes. Every field given must match; fields left out match anything.
 * - attempt faults: `tool` (the pending action's name), `attempt` (its attempt number), `call` (global call number);
 * - crash_after_event: `label` (e.g. `prepared`), `seq` (the event's row number in the log), `tool` (the pending action).
 */
export interface FaultPoint {
  tool?: string;
  attempt?: number;
  call?: number;
  label?: string;
  seq?: number;
  /** Many workers: the worker it strikes (any fault may name one; a worker fault must). */
  worker?: string;
  /** A worker fault: where in the worker's loop. */
  point?: WorkerPointName;
  /** A worker fault: during the worker's n-th grant (1 = the first task a claim of its got) and the work it gave it. */
  grant?: number;
}

export interface FaultSpec {
  kind: FaultKind;
  at: FaultPoint;
  /** concurrent_reserve only: how many units the other client reserves (default 1). */
  qty?: number;
  /** worker_pause, heartbeat_starved: for how long (virtual ms); lease_expires: how long past the lease's expiry. */
  ms?: number;
}

export function describePoint(fault: FaultSpec): string {
  if (isWorkerFault(fault.kind) || fault.at.worker !== undefined) return describeWorkerPoint(fault);
  const { tool, attempt, call, label, seq } = fault.at;
  const parts: string[] = [];
  if (fault.kind === 'crash_after_event') {
    if (label !== undefined) parts.push(t('fault.point.label', { label }));
    if (seq !== undefined) parts.push(t('fault.point.seq', { seq }));
    // "event prepared of reserve": the action's name goes where each language puts it, around the event.
    if (tool !== undefined) return parts.length > 0 ? t('fault.point.eventOfTool', { event: parts.join(' '), tool }) : t('fault.point.ofTool', { tool });
  } else {
    if (tool !== undefined) parts.push(tool);
    if (attempt !== undefined) parts.push(t('fault.point.attempt', { n: attempt }));
    if (call !== undefined) parts.push(t('fault.point.call', { n: call }));
  }
  return parts.length > 0 ? parts.join(' ') : t('fault.point.any');
}

/** "w1 before reserve attempt 1", "w2 right after its claim 1": the worker, then where in its loop. */
function describeWorkerPoint(fault: FaultSpec): string {
  const { worker, point, tool, attempt, call, label, grant } = fault.at;
  const parts: string[] = [worker ?? t('workers.point.anyWorker')];
  if (fault.kind === 'claim_reply_lost') parts.push(t('workers.point.claimReply'));
  else if (point === 'claimed') parts.push(t('workers.point.claimed'));
  else if (point === 'finish') parts.push(t('workers.point.finish'));
  else if (point === 'saved' || fault.kind === 'crash_after_event') parts.push(t('workers.point.saved', { event: label !== undefined ? t('fault.point.label', { label }) : t('workers.point.anEvent') }));
  else if (point === 'request' || tool !== undefined || attempt !== undefined || call !== undefined) {
    const request = [...(tool !== undefined ? [tool] : []), ...(attempt !== undefined ? [t('fault.point.attempt', { n: attempt })] : []), ...(call !== undefined ? [t('fault.point.call', { n: call })] : [])];
    // A chapter fault naming a worker strikes that worker's attempt where its kind says (after the commit, …): the attempt, plainly.
    if (!isWorkerFault(fault.kind)) parts.push(request.join(' '));
    else parts.push(t('workers.point.request', { request: request.length > 0 ? request.join(' ') : t('workers.point.aRequest') }));
  }
  if (grant !== undefined) parts.push(t('workers.point.ofGrant', { n: grant }));
  return parts.join(' ');
}

export function describeFault(fault: FaultSpec): string {
  const point = describePoint(fault);
  if (fault.ms !== undefined) return t('workers.fault.forMs', { kind: fault.kind, ms: fault.ms, point });
  if (isWorkerFault(fault.kind)) return t('fault.at', { kind: fault.kind, point });
  if (fault.kind === 'crash_after_event') return t('fault.after', { kind: fault.kind, point });
  if (fault.kind === 'concurrent_reserve' && fault.qty !== undefined) return t('fault.atQty', { kind: fault.kind, qty: fault.qty, point });
  return t('fault.at', { kind: fault.kind, point });
}

/** A scenario's faults in a few words; the same fault at consecutive attempts reads "attempts 1–3". */
export function describeFaults(faults: readonly FaultSpec[]): string {
  if (faults.length === 0) return t('fault.none');
  const parts: string[] = [];
  for (let i = 0; i < faults.length; ) {
    const f = faults[i]!;
    let j = i + 1;
    const run = (g: FaultSpec, n: number) =>
      g.kind === f.kind && g.at.tool === f.at.tool && g.at.call === undefined && f.at.call === undefined && g.qty === f.qty &&
      g.at.attempt !== undefined && f.at.attempt !== undefined && g.at.attempt === f.at.attempt + n && g.kind !== 'crash_after_event';
    while (j < faults.length && run(faults[j]!, j - i)) j += 1;
    if (j - i >= 2) parts.push(t('fault.attempts', { kind: f.kind, tool: f.at.tool ?? t('fault.anyTool'), from: f.at.attempt!, to: f.at.attempt! + (j - i - 1) }));
    else parts.push(describeFault(f));
    i = j;
  }
  return parts.join(t('fault.join'));
}
