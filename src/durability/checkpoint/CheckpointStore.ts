import type { Clock } from '../../core/clock.js';
import { canonicalJson } from '../../core/canonical.js';
import { DEFAULT_DURABILITY_CONFIG } from '../config/defaults.js';
import type { CheckpointConfig } from '../config/types.js';
import { CheckpointError } from '../errors.js';
import { ignoreEvents, type DurabilityEvent, type EventSink } from '../events.js';
import type { Db } from '../../core/storage.js';
import type { Checkpoint } from './Checkpoint.js';

export type { Checkpoint } from './Checkpoint.js';

/**
 * The delivery manifest. Invariant: once save() returns, a restart can restore that phase and its state
 * until expires_at (unless max_checkpoints evicts it or clearTask removes it on purpose) — expires_at is
 * stored, never recomputed, so a reopened store does not revive an expired checkpoint (ours: the
 * original reset expiry on load). Commit point: the INSERT into `checkpoints`
 * (with its id, in one transaction). "Latest" is the highest sequence number, never a timestamp (two
 * saves in the same millisecond stay ordered), and ids are `cp-` + that sequence: deterministic, and
 * never reissued after a crash. A checkpoint is live while now < expires_at.
 */


export interface CheckpointStoreOptions {
  db: Db;
  clock: Clock;
  config?: CheckpointConfig;
  events?: EventSink;
}

interface Row {
  seq: number;
  checkpoint_id: string;
  task_id: string;
  agent_id: string;
  phase: string;
  state_json: string;
  created_at_ms: number;
  expires_at_ms: number;
  parent_checkpoint_id: string | null;
}

const fromRow = (r: Row): Checkpoint => ({
  checkpointId: r.checkpoint_id,
  taskId: r.task_id,
  agentId: r.agent_id,
  phase: r.phase,
  state: JSON.parse(r.state_json),
  createdAtMs: r.created_at_ms,
  expiresAtMs: r.expires_at_ms,
  parentCheckpointId: r.parent_checkpoint_id,
  seq: r.seq,
});

export class CheckpointStore {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #config: CheckpointConfig;
  readonly #emit: EventSink;

  constructor(options: CheckpointStoreOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#config = { ...(options.config ?? DEFAULT_DURABILITY_CONFIG.checkpoint) };
    this.#emit = options.events ?? ignoreEvents;
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS checkpoints (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        checkpoint_id TEXT UNIQUE,
        task_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        phase TEXT NOT NULL,
        state_json TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        parent_checkpoint_id TEXT
      );
      CREATE INDEX IF NOT EXISTS checkpoints_by_task ON checkpoints (task_id, agent_id, seq);
      CREATE TABLE IF NOT EXISTS checkpoint_meta (id INTEGER PRIMARY KEY CHECK (id = 1), last_cleanup_ms INTEGER NOT NULL);`);
    this.#db.prepare('INSERT OR IGNORE INTO checkpoint_meta (id, last_cleanup_ms) VALUES (1, ?)').run(this.#clock.nowMs());
  }

  /** Snapshot a phase. Its parent is the task's previous checkpoint (for this agent), if any. */
  save(taskId: string, agentId: string, phase: string, state: unknown, ttlSeconds?: number): Checkpoint {
    const parent = this.#db
      .prepare('SELECT checkpoint_id FROM checkpoints WHERE task_id = ? AND agent_id = ? ORDER BY seq DESC LIMIT 1')
      .get(taskId, agentId) as { checkpoint_id: string } | undefined;
    return this.#insert(taskId, agentId, phase, state, ttlSeconds, parent?.checkpoint_id ?? null);
  }

  /** The latest live checkpoint of the task (optionally of one phase). Throws NOT_FOUND or EXPIRED. */
  restore(taskId: string, agentId: string, phase?: string): Checkpoint {
    const rows = (
      phase === undefined
        ? this.#db.prepare('SELECT * FROM checkpoints WHERE task_id = ? AND agent_id = ? ORDER BY seq DESC').all(taskId, agentId)
        : this.#db.prepare('SELECT * FROM checkpoints WHERE task_id = ? AND agent_id = ? AND phase = ? ORDER BY seq DESC').all(taskId, agentId, phase)
    ) as Row[];
    const now = this.#clock.nowMs();
    const live = rows.find((r) => now < r.expires_at_ms);
    const what = `task ${taskId}, agent ${agentId}${phase === undefined ? '' : `, phase ${phase}`}`;
    if (!live && rows[0]) {
      throw new CheckpointError('CHECKPOINT_EXPIRED', `every checkpoint of ${what} has expired (the latest at ${rows[0].expires_at_ms} ms, now ${now} ms)`);
    }
    if (!live) throw new CheckpointError('CHECKPOINT_NOT_FOUND', `no checkpoint for ${what}`);
    const checkpoint = fromRow(live);
    this.#emit({ type: 'checkpoint.restored', atMs: now, checkpoint });
    return checkpoint;
  }

  get(checkpointId: string): Checkpoint | undefined {
    const row = this.#db.prepare('SELECT * FROM checkpoints WHERE checkpoint_id = ?').get(checkpointId) as Row | undefined;
    return row && fromRow(row);
  }

  /** Branch: a new task starts from a copy of a live checkpoint; the copy's parent is the source. */
  fork(checkpointId: string, newTaskId: string, ttlSeconds?: number): Checkpoint {
    const source = this.#live(checkpointId);
    return this.#insert(newTaskId, source.agentId, source.phase, source.state, ttlSeconds, source.checkpointId);
  }

  /** Go back: the task's newest checkpoint becomes a copy of one of its earlier ones (parent = that one). */
  rewind(taskId: string, checkpointId: string, ttlSeconds?: number): Checkpoint {
    const source = this.#live(checkpointId);
    if (source.taskId !== taskId) {
      throw new CheckpointError('CHECKPOINT_TASK_MISMATCH', `${checkpointId} belongs to task ${source.taskId}, not ${taskId}; fork it instead`);
    }
    return this.#insert(taskId, source.agentId, source.phase, source.state, ttlSeconds, source.checkpointId);
  }

  /** The checkpoint and its ancestors, newest first; stops where a parent no longer exists. */
  lineage(checkpointId: string): Checkpoint[] {
    const chain: Checkpoint[] = [];
    let next: string | null = checkpointId;
    while (next !== null && !chain.some((c) => c.checkpointId === next)) {
      const found = this.get(next);
      if (!found) break;
      chain.push(found);
      next = found.parentCheckpointId;
    }
    if (chain.length === 0) throw new CheckpointError('CHECKPOINT_NOT_FOUND', `no checkpoint ${checkpointId}`);
    return chain;
  }

  /**
   * Tear up a task's manifest: delete its checkpoints — one agent's, or every agent's when `agentId` is
   * left out — in one DELETE (its commit is the point). Returns how many. The task's next save starts a
   * fresh chain (no parent); ids are never reissued (AUTOINCREMENT), and a fork of a cleared checkpoint
   * keeps its copy, its lineage stopping where the parent was removed.
   */
  clearTask(taskId: string, agentId?: string): number {
    const removed =
      agentId === undefined
        ? this.#db.prepare('DELETE FROM checkpoints WHERE task_id = ?').run(taskId).changes
        : this.#db.prepare('DELETE FROM checkpoints WHERE task_id = ? AND agent_id = ?').run(taskId, agentId).changes;
    this.#emit({ type: 'checkpoint.cleared', atMs: this.#clock.nowMs(), taskId, ...(agentId === undefined ? {} : { agentId }), removed });
    return removed;
  }

  /** All stored checkpoints, expired ones included until cleaned, in sequence order. */
  list(): Checkpoint[] {
    return (this.#db.prepare('SELECT * FROM checkpoints ORDER BY seq').all() as Row[]).map(fromRow);
  }

  /** Delete every expired checkpoint; returns how many. */
  cleanupExpired(): number {
    const now = this.#clock.nowMs();
    const removed = this.#db.transaction(() => {
      this.#db.prepare('UPDATE checkpoint_meta SET last_cleanup_ms = ? WHERE id = 1').run(now);
      return this.#db.prepare('DELETE FROM checkpoints WHERE expires_at_ms <= ?').run(now).changes;
    })();
    this.#emit({ type: 'checkpoint.cleanup', atMs: now, removed });
    return removed;
  }

  #live(checkpointId: string): Checkpoint {
    const source = this.get(checkpointId);
    if (!source) throw new CheckpointError('CHECKPOINT_NOT_FOUND', `no checkpoint ${checkpointId}`);
    if (this.#clock.nowMs() >= source.expiresAtMs) {
      throw new CheckpointError('CHECKPOINT_EXPIRED', `${checkpointId} expired at ${source.expiresAtMs} ms`);
    }
    return source;
  }

  #insert(taskId: string, agentId: string, phase: string, state: unknown, ttlSeconds: number | undefined, parent: string | null): Checkpoint {
    const ttl = ttlSeconds ?? this.#config.defaultTtlSeconds;
    if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
      throw new CheckpointError('CHECKPOINT_INVALID_TTL', `ttl_seconds must be a number > 0, got ${String(ttl)} (a checkpoint that is born expired protects nothing)`);
    }
    const now = this.#clock.nowMs();
    if (now - this.#lastCleanupMs() >= this.#config.cleanupIntervalSeconds * 1000) this.cleanupExpired();
    const pending: DurabilityEvent[] = [];
    const checkpoint = this.#db.transaction(() => {
      const { lastInsertRowid } = this.#db
        .prepare(
          `INSERT INTO checkpoints (task_id, agent_id, phase, state_json, created_at_ms, expires_at_ms, parent_checkpoint_id)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(taskId, agentId, phase, canonicalJson(state ?? null), now, now + ttl * 1000, parent);
      const seq = Number(lastInsertRowid);
      this.#db.prepare(`UPDATE checkpoints SET checkpoint_id = printf('cp-%06d', seq) WHERE seq = ?`).run(seq);
      this.#evictOverflow(now, pending);
      return fromRow(this.#db.prepare('SELECT * FROM checkpoints WHERE seq = ?').get(seq) as Row);
    })();
    this.#emit({ type: 'checkpoint.saved', atMs: now, checkpoint });
    for (const event of pending) this.#emit(event);
    return checkpoint;
  }

  /** After an insert: keep at most max_checkpoints live entries by deleting the oldest live ones. */
  #evictOverflow(now: number, pending: DurabilityEvent[]): void {
    const { n } = this.#db.prepare('SELECT COUNT(*) AS n FROM checkpoints WHERE expires_at_ms > ?').get(now) as { n: number };
    const excess = n - this.#config.maxCheckpoints;
    if (excess <= 0) return;
    const victims = this.#db
      .prepare('SELECT checkpoint_id FROM checkpoints WHERE expires_at_ms > ? ORDER BY seq LIMIT ?')
      .all(now, excess) as { checkpoint_id: string }[];
    for (const { checkpoint_id } of victims) {
      this.#db.prepare('DELETE FROM checkpoints WHERE checkpoint_id = ?').run(checkpoint_id);
      pending.push({ type: 'checkpoint.evicted', atMs: now, checkpointId: checkpoint_id });
    }
  }

  #lastCleanupMs(): number {
    return (this.#db.prepare('SELECT last_cleanup_ms FROM checkpoint_meta WHERE id = 1').get() as { last_cleanup_ms: number }).last_cleanup_ms;
  }
}
