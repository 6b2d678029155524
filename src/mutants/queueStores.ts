/**
 * Deliberately broken queues and workers: each breaks one rule of the queue's protocol (src/queue/QueueStore.ts)
 * the way real job queues have (River #1302, Oban #532, Solid Queue #589), so that each new invariant is shown
 * to catch one (docs/spec.md §12). Most change one clause of the protocol's statements; two change its control.
 */
import { refuse } from '../inventory/refusals.js';
import { CLAUSES, QueueStore, type Clauses, type Grant, type Swept } from '../queue/QueueStore.js';
import { ReferenceWorker, type CycleOutcome } from '../runner/ReferenceWorker.js';
import { isBusy } from '../core/busy.js';

/** The fence checks the task and its state, not the holder: any worker's write goes in while the task runs. */
export class NoFenceCheckQueue extends QueueStore {
  protected override clauses(): Clauses {
    return { ...CLAUSES, fence: "task_id = @task AND state = 'running'", finish: "task_id = @task AND state = 'running'" };
  }
}

/**
 * The fence refuses a token that has not gone forward, `@token <= token`, where a token older than the task's
 * was meant (`<`): the holder's own token equals the task's, so every write of every holder is refused — safe,
 * and nothing ever gets done.
 */
export class TokenComparedLeQueue extends QueueStore {
  protected override clauses(): Clauses {
    const guard = "task_id = @task AND owner = @owner AND NOT (@token <= token) AND state = 'running'";
    return { ...CLAUSES, fence: guard, finish: guard };
  }
}

/** Completion and failure are guarded by the task's id only: a stale holder finishes a task another holds — or one already finished. */
export class CompletionByIdQueue extends QueueStore {
  protected override clauses(): Clauses {
    return { ...CLAUSES, finish: 'task_id = @task' };
  }
}

/**
 * The sweep reads the expired leases outside any transaction, then returns each by its id only: a completion
 * that commits between the read and the write is overwritten — the finished task goes back to the queue.
 */
export class RescueOverwritesDoneQueue extends QueueStore {
  protected override clauses(): Clauses {
    return { ...CLAUSES, rescue: 'task_id = @task' };
  }

  override async sweep(): Promise<Swept[]> {
    await this.turns.at('sweep:read');
    const expired = await this.many<{ task_id: string; owner: string; token: number; lease_until_ms: number }>('expired', { now: this.clock.nowMs() });
    const swept: Swept[] = [];
    for (const row of expired) {
      await this.turns.at('sweep:write');
      const changes = await this.write(() => this.change('rescue', { task: row.task_id, token: row.token, now: this.clock.nowMs() }));
      if (changes > 0) swept.push({ task: row.task_id, owner: row.owner, token: row.token, leaseUntilMs: row.lease_until_ms });
    }
    await this.turns.at('sweep:commit');
    return swept;
  }
}

/**
 * The claim is a deferred transaction: it reads the queued task and its token without the write lock, then
 * upgrades to write `token = read + 1`. When the upgrade meets BUSY (another claimant wrote first) it retries the
 * write alone, trusting what it read: a second grant of the same token, over a live lease.
 */
export class DeferredUpgradeQueue extends QueueStore {
  /** It breaks SQLite's own locking (a deferred transaction's upgrade): PostgreSQL has none to break (src/cli/postgresCheck.ts). */
  static readonly sqliteOnly = true;

  override async claim(owner: string): Promise<Grant | null> {
    this.db.exec('BEGIN'); // deferred: no lock until the first write
    try {
      await this.turns.at('claim:read');
      const held = this.sql('held').get({ owner }) as { task_id: string; token: number } | undefined;
      const found = held ?? (this.sql('queued').get() as { task_id: string; token: number } | undefined);
      if (found === undefined) {
        this.db.exec('COMMIT');
        return null;
      }
      await this.turns.at('claim:write');
      const now = this.clock.nowMs();
      const params = { owner, task: found.task_id, token: found.token + 1, until: now + this.leaseMs, now };
      let granted: { token: number; lease_until_ms: number };
      try {
        granted = this.db.prepare(UPGRADE).get(params) as typeof granted;
      } catch (error) {
        if (!isBusy(error)) throw error;
        await this.rollback(); // "the database was busy: write it again" — as what was read said
        granted = (await this.write(() => this.db.prepare(UPGRADE).get(params))) as typeof granted;
      }
      await this.turns.at('claim:commit');
      if (this.db.inTransaction) this.db.exec('COMMIT');
      return { task: found.task_id, owner, token: granted.token, leaseUntilMs: granted.lease_until_ms, reclaim: held !== undefined };
    } catch (error) {
      await this.rollback();
      throw error;
    }
  }
}

const UPGRADE = "UPDATE tasks SET state = 'running', owner = @owner, token = @token, lease_until_ms = @until, updated_at_ms = @now WHERE task_id = @task RETURNING token, lease_until_ms";

/**
 * The worker asks "is my lease still mine?" before each write, and the store checks nothing of the holder (as
 * NoFenceCheckQueue): between the check and the write the lease can expire and the task go to another.
 */
export class LeaseCheckingWorker extends ReferenceWorker {
  override async cycle(): Promise<CycleOutcome> {
    const tasks = this.tasks;
    const queue = this.queue;
    const clock = this.clock;
    // The reference's cycle, with the worker's own check before every write its task makes.
    const checked = {
      run: (grant: Grant) =>
        tasks.run(grant, {
          beforeWrite: async () => {
            const row = await queue.lease(grant);
            const mine = row !== null && row.state === 'running' && row.owner === grant.owner && row.token === grant.token && (row.lease_until_ms ?? 0) > clock.nowMs();
            if (!mine) throw refuse('STALE_FENCE', 'staleFenceOwnCheck', { owner: grant.owner, task: grant.task });
          },
        }),
    };
    return new ReferenceWorker({ queue, tasks: checked, clock }).cycle();
  }
}
