/**
 * The points of a finished run where a fault could strike, in the order they happened: every request the
 * runner put on the wire (an attempt, by its call number) and every event it persisted (by its number in
 * the log). Read from the trace, so it is exact for any runner, broken ones included.
 *
 * Why this is enough: a fault whose point a run never reaches changes nothing, so the run with it added is
 * the run without it. Adding fault b to the run R(a) therefore gives a new run only if b's point comes at
 * or after the point where a fired — which is exactly where the enumeration of depth 2 looks.
 */
import type { FaultSpec } from '../faults/types.js';
import { ATTEMPT_FAULT_KINDS } from '../faults/types.js';
import type { RunResult } from '../check/RunResult.js';
import type { TraceEventOf } from '../sim/events.js';
import { attemptFault, eventCrash } from './schedule.js';

/**
 * A request with a call number of its own: the runner's attempts, and the outbox relay's requests (docs/spec.md
 * §14.4, numbered after the task's) — not a second delivery, nor the status query a client sends inside an attempt.
 */
export function onTheCallCount(event: TraceEventOf<'request'>): boolean {
  return (event.by === 'runner' || event.by === 'relay') && event.delivery === undefined && event.check === undefined;
}

export interface PointInTime {
  /** Position in the run: points with a larger position happened later. */
  position: number;
  fault: FaultSpec;
}

/** Every fault point of the run, each at its first occurrence, in time order (attempt faults in docs/spec.md §5 order). */
export function timeline(run: RunResult): PointInTime[] {
  const points: PointInTime[] = [];
  const calls = new Set<number>();
  const seqs = new Set<number>();
  run.trace.forEach((event, position) => {
    if (event.type === 'request' && onTheCallCount(event) && event.call !== undefined) {
      if (calls.has(event.call)) return;
      calls.add(event.call);
      for (const kind of ATTEMPT_FAULT_KINDS) points.push({ position, fault: attemptFault(kind, event.call) });
    } else if (event.type === 'saved' && !seqs.has(event.seq)) {
      seqs.add(event.seq);
      points.push({ position, fault: eventCrash(event.seq) });
    }
  });
  return points;
}

/** The highest call number the runner put on the wire, and the last event number it persisted. */
export function reach(run: RunResult): { calls: number; events: number } {
  let calls = 0;
  for (const event of run.trace) if (event.type === 'request' && onTheCallCount(event) && event.call !== undefined) calls = Math.max(calls, event.call);
  return { calls, events: Math.max(0, ...run.log.map((e) => e.seq)) };
}

/** Where in the run the planned fault at `index` fired (its point's position), or null if it never did. */
export function firedPosition(run: RunResult, index: number): number | null {
  const at = run.trace.findIndex((event) => event.type === 'fault' && event.index === index);
  if (at === -1) return null;
  // The point is the request or saved event the fault struck: the last one before the fault event.
  for (let i = at - 1; i >= 0; i -= 1) {
    const event = run.trace[i]!;
    if ((event.type === 'request' && onTheCallCount(event)) || event.type === 'saved') return i;
  }
  return null;
}
