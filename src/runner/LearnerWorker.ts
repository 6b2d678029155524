/**
 * ─── The second exercise: write the queue's side of a worker ────────────────────────────────────────────
 * Read lessons 09 (leases and fencing tokens) and 10 (zombies) first. This is the one file you edit.
 *
 * Several workers share one task queue: the table `tasks` in the tool's SQLite database —
 *   task_id TEXT PRIMARY KEY, state TEXT ('queued', 'running', 'done', 'failed'), owner TEXT,
 *   token INTEGER (0 until the first grant), lease_until_ms INTEGER, finished_token INTEGER, result TEXT,
 *   updated_at_ms INTEGER
 * A worker claims a task, runs it (the harness does that part, with the reference runner), then finishes it.
 * Workers pause (a GC pause, a SIGSTOP) and come back as zombies; they crash and restart; replies are lost;
 * between any two of your statements another worker may move.
 *
 * What your class must guarantee (the grader runs the many-worker scenarios as written, then explores their
 * interleavings with one added fault at every point, and checks the queue's six invariants every time):
 *   - claim(owner): a grant is one transaction. The task `owner` holds already (state 'running', its owner —
 *     its claim's reply was lost, or it held it in a life a crash ended), else the first queued task, becomes
 *     'running' under `owner`, with a lease (lease_until_ms = now + leaseMs) and a fencing token one more than
 *     the task's last — on EVERY grant, the same owner's re-claim included. Return { task }, or null if none.
 *   - static fence: the SQL condition on `tasks` (with @task, @owner, @token) under which a holder's write may
 *     commit. The harness puts it in the same transaction as every write a holder makes: the reservation and its
 *     ledger row, a line of the task's log, the heartbeat. A write it refuses has no effect at all.
 *   - finish(fence, state, result): only the holder of that grant finishes the task (state 'done' or 'failed',
 *     result kept, finished_token = its token); return false when the grant no longer holds it. A finished task
 *     never changes again.
 *   - sweep(): every task whose lease has expired goes back to 'queued' (owner cleared, token kept) — only if it
 *     is still that very grant, expired, when it is written. Return what you returned to the queue.
 *
 * Where to read: BaseWorker.ts (this.db, this.clock, this.leaseMs), ../queue/QueueStore.ts's comments (the
 * commit points) — not its code: write your own.
 *
 * Check your work:  npx faultlab grade src/runner/LearnerWorker.ts
 *                   npx faultlab run scenarios/workers/zombie_after_pause.yaml --runner src/runner/LearnerWorker.ts
 * ─────────────────────────────────────────────────────────────────────────────────────────────────────────
 */
import { BaseWorker, type Claimed, type Fence, type Returned } from './BaseWorker.js';
import { NotImplementedError } from './errors.js';

export class LearnerWorker extends BaseWorker {
  /** Who may write: a SQL condition on `tasks` with @task, @owner and @token (empty: not written yet). */
  static readonly fence: string = '';

  claim(_owner: string): Claimed | null {
    throw new NotImplementedError('claim');
  }

  finish(_fence: Fence, _state: 'done' | 'failed', _result: string): boolean {
    throw new NotImplementedError('finish');
  }

  sweep(): Returned[] {
    throw new NotImplementedError('sweep');
  }
}
