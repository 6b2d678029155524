/**
 * The queue's figures of a many-worker run (docs/spec.md §10), read from what the harness saw, never from what a
 * store or a worker says: the task's row at the end, the grants the queue's table shows (a new holder, or a new
 * token), and every write the store refused as stale.
 */
import type { TaskChange, TraceEvent } from '../sim/events.js';
import type { Run } from '../sim/Run.js';

export interface WorkerFigures {
  task: string | null;
  grants: number;
  stale_refused: number;
}

/** A change of the task's row that is a grant: it runs now under another holder or another token than before. */
export function isGrant(change: TaskChange): boolean {
  const { from, to } = change;
  return to !== null && to.state === 'running' && (from === null || from.state !== 'running' || from.owner !== to.owner || from.token !== to.token);
}

/** A write the store refused because its fence was stale: a log line, a reserve, a renewal, a completion or a failure. */
export function isStaleRefusal(event: TraceEvent): boolean {
  if (event.type === 'save_refused') return true;
  if (event.type === 'holder') return !event.ok;
  return event.type === 'reply' && !event.outcome.ok && event.outcome.error.code === 'STALE_FENCE';
}

export function workerFigures(run: Run): WorkerFigures {
  let grants = 0;
  let stale = 0;
  for (const event of run.trace) {
    if (event.type === 'tasks') grants += event.changes.filter(isGrant).length;
    else if (isStaleRefusal(event)) stale += 1;
  }
  return { task: run.workers?.tasks[0]?.state ?? null, grants, stale_refused: stale };
}
