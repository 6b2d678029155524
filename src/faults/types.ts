/**
 * The fault catalogue of docs/spec.md §5. A fault names a kind and a point; the harness consults the plan at
 * that point and records what fired.
 */
import { message, type Message, type Param } from '../core/message.js';
import type { FaultCode } from './codes.js';
export const ATTEMPT_FAULT_KINDS = [
  'concurrent_reserve',
  'transient',
  'crash_before_commit',
  'duplicate_delivery',
  'crash_after_commit',
  'lost_reply',
] as const;
/** Listed in the order they apply when several hit one attempt (docs/spec.md §5). */
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

/**
 * The faults of time (docs/spec.md §13): a request that reaches the tool late, a whole task delivered again
 * later. A scenario lists them; the explorer never adds them (its schedules over the 17 stay what they were).
 */
export const TIME_FAULT_KINDS = ['late_delivery', 'redeliver_task'] as const;
export type TimeFaultKind = (typeof TIME_FAULT_KINDS)[number];
/**
 * The fault of authorisation (docs/spec.md §5): at the start of an attempt, the task's permission for the attempt's
 * tool is withdrawn (an operator's change of its grants) — that attempt was authorised already and goes on; every
 * authorisation after it refuses the tool. A scenario lists it; the explorer never adds it.
 */
export const PERMISSION_FAULT_KINDS = ['revoke_permission'] as const;
export type PermissionFaultKind = (typeof PERMISSION_FAULT_KINDS)[number];
export type FaultKind = AttemptFaultKind | 'crash_after_event' | WorkerFaultKind | TimeFaultKind | PermissionFaultKind;
export const FAULT_KINDS: readonly FaultKind[] = [...ATTEMPT_FAULT_KINDS, 'crash_after_event', ...WORKER_FAULT_KINDS, ...TIME_FAULT_KINDS, ...PERMISSION_FAULT_KINDS];
/** Every fault that strikes an attempt, in the order they apply: a late request waits before anything else happens to it. */
export const AT_ATTEMPT_ORDER: readonly FaultKind[] = ['revoke_permission', 'concurrent_reserve', 'late_delivery', ...ATTEMPT_FAULT_KINDS.slice(1)];

/** The tools whose permission a fired revoke_permission has withdrawn (in plan order). */
export function revokedTools(faults: ReadonlyArray<{ spec: FaultSpec; firedAt: unknown }>): string[] {
  return faults.filter((f) => f.spec.kind === 'revoke_permission' && f.firedAt !== null && f.spec.at.tool !== undefined).map((f) => f.spec.at.tool!);
}

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
  /** redeliver_task: how long after the task's delivery ended it is delivered again (virtual ms). */
  after_ms?: number;
}

export interface FaultSpec {
  kind: FaultKind;
  at: FaultPoint;
  /** concurrent_reserve only: how many units the other client reserves (default 1). */
  qty?: number;
  /** late_delivery only: how long the request waits on the wire before it reaches the tool (virtual ms). */
  delay_ms?: number;
  /** worker_pause, heartbeat_starved: for how long (virtual ms); lease_expires: how long past the lease's expiry. */
  ms?: number;
}

/** Where a fault strikes, in words: `reserve attempt 2`, `event prepared of reserve`, `any point`; a worker's fault, the worker first. */
export function describePoint(fault: FaultSpec): Param {
  if (isWorkerFault(fault.kind) || fault.at.worker !== undefined) return describeWorkerPoint(fault);
  const { tool, attempt, call, label, seq } = fault.at;
  const parts: Param[] = [];
  if (fault.kind === 'redeliver_task') return message('fault.point.afterMs', { ms: fault.at.after_ms ?? 0 });
  if (fault.kind === 'crash_after_event') {
    if (label !== undefined) parts.push(message('fault.point.label', { label }));
    if (seq !== undefined) parts.push(message('fault.point.seq', { seq }));
    // "event prepared of reserve": the action's name goes where each language puts it, around the event.
    if (tool !== undefined) return parts.length > 0 ? message('fault.point.eventOfTool', { event: spaced(parts), tool }) : message('fault.point.ofTool', { tool });
  } else {
    if (tool !== undefined) parts.push(tool);
    if (attempt !== undefined) parts.push(message('fault.point.attempt', { n: attempt }));
    if (call !== undefined) parts.push(message('fault.point.call', { n: call }));
  }
  return parts.length > 0 ? spaced(parts) : message('fault.point.any');
}

/** "w1 before reserve attempt 1", "w2 right after its grant (grant 1)": the worker, then where in its loop. */
function describeWorkerPoint(fault: FaultSpec): Param {
  const { worker, point, tool, attempt, call, label, grant } = fault.at;
  const parts: Param[] = [worker ?? message('workers.point.anyWorker')];
  if (fault.kind === 'claim_reply_lost') parts.push(message('workers.point.claimReply'));
  else if (point === 'claimed') parts.push(message('workers.point.claimed'));
  else if (point === 'finish') parts.push(message('workers.point.finish'));
  else if (point === 'saved' || fault.kind === 'crash_after_event') parts.push(message('workers.point.saved', { event: label !== undefined ? message('fault.point.label', { label }) : message('workers.point.anEvent') }));
  else if (point === 'request' || tool !== undefined || attempt !== undefined || call !== undefined) {
    const request: Param[] = [...(tool !== undefined ? [tool] : []), ...(attempt !== undefined ? [message('fault.point.attempt', { n: attempt })] : []), ...(call !== undefined ? [message('fault.point.call', { n: call })] : [])];
    // A chapter fault naming a worker strikes that worker's attempt where its kind says (after the commit, …): the attempt, plainly.
    if (!isWorkerFault(fault.kind)) parts.push(request.length > 0 ? spaced(request) : '');
    else parts.push(message('workers.point.request', { request: request.length > 0 ? spaced(request) : message('workers.point.aRequest') }));
  }
  if (grant !== undefined) parts.push(message('workers.point.ofGrant', { n: grant }));
  return spaced(parts);
}

/** Words of a point side by side, a space between: `reserve attempt 2 call 3`. */
function spaced(parts: readonly Param[]): Param {
  return parts.reduce((first, second) => message<FaultCode>('fault.point.and', { first, second }));
}

export function describeFault(fault: FaultSpec): Message<FaultCode> {
  const point = describePoint(fault);
  if (fault.ms !== undefined) return message('workers.fault.forMs', { kind: fault.kind, ms: fault.ms, point });
  if (isWorkerFault(fault.kind)) return message('fault.at', { kind: fault.kind, point });
  if (fault.kind === 'crash_after_event') return message('fault.after', { kind: fault.kind, point });
  if (fault.kind === 'concurrent_reserve' && fault.qty !== undefined) return message('fault.atQty', { kind: fault.kind, qty: fault.qty, point });
  if (fault.kind === 'late_delivery') return message('fault.late', { kind: fault.kind, ms: fault.delay_ms ?? 0, point });
  if (fault.kind === 'redeliver_task') return message('fault.redeliver', { kind: fault.kind, point });
  return message('fault.at', { kind: fault.kind, point });
}

/** A scenario's faults in a few words; the same fault at consecutive attempts reads "attempts 1–3". */
export function describeFaults(faults: readonly FaultSpec[]): Message<FaultCode> {
  if (faults.length === 0) return message('fault.none');
  const parts: Array<Message<FaultCode>> = [];
  for (let i = 0; i < faults.length; ) {
    const f = faults[i]!;
    let j = i + 1;
    const run = (g: FaultSpec, n: number) =>
      g.kind === f.kind && g.at.tool === f.at.tool && g.at.call === undefined && f.at.call === undefined && g.qty === f.qty &&
      g.at.attempt !== undefined && f.at.attempt !== undefined && g.at.attempt === f.at.attempt + n && g.kind !== 'crash_after_event';
    while (j < faults.length && run(faults[j]!, j - i)) j += 1;
    if (j - i >= 2) parts.push(message('fault.attempts', { kind: f.kind, tool: f.at.tool ?? message('fault.anyTool'), from: f.at.attempt!, to: f.at.attempt! + (j - i - 1) }));
    else parts.push(describeFault(f));
    i = j;
  }
  return listOfFaults(parts);
}

/** Faults (each already a message) one after another: `a; b; c`. */
export function listOfFaults(faults: ReadonlyArray<Message<FaultCode>>): Message<FaultCode> {
  return faults.slice(0, -1).reduceRight<Message<FaultCode>>((rest, first) => message('fault.list', { first, rest }), faults[faults.length - 1]!);
}
