import type { Clock } from '../../core/clock.js';
import { canonicalJson } from '../../core/canonical.js';
import { DEFAULT_DURABILITY_CONFIG } from '../config/defaults.js';
import type { DlqConfig } from '../config/types.js';
import { DlqError } from '../errors.js';
import { ignoreEvents, type EventSink, type OperationError } from '../events.js';
import type { Db } from '../../core/storage.js';
import type { DlqRecord, DlqStatus } from './DlqRecord.js';

export type { DlqRecord, DlqStatus } from './DlqRecord.js';

/**
 * The returns warehouse. Invariant: an operation whose retries were exhausted is kept whole — the
 * complete original operation, who sent it, how many attempts, the last error — until a person or a job
 * replays or abandons it, or its TTL passes. Commit point: the INSERT in enqueue(). A status moves only
 * from pending (ours: the original let a replayed record be abandoned, or replayed twice): the
 * conditional UPDATE `... WHERE status = 'pending' AND expires_at_ms > now` is the single write that
 * decides it, so two replays racing on one record cannot both win, and an expired one cannot move.
 *
 * Expiry (ours: the original kept handing out expired records and never purged them): a record is live
 * while now < expires_at. Every access first purges the expired rows in its own transaction — lazily, no
 * timers — and says so with a `dlq.cleanup` event when it removed any. So get/list/listPending never
 * hand out an expired record, and markReplayed/abandon on one that expired since it was last seen are
 * refused with DLQ_EXPIRED (a later access, after the purge, answers DLQ_NOT_FOUND).
 */

export interface EnqueueInput {
  agentId: string;
  operationType: string;
  originalOperation: unknown;
  attempts: number;
  lastError: OperationError;
  ttlSeconds?: number;
}

export interface DeadLetterQueueOptions {
  db: Db;
  clock: Clock;
  config?: DlqConfig;
  events?: EventSink;
}

interface Row {
  seq: number;
  dlq_id: string;
  agent_id: string;
  operation_type: string;
  original_operation_json: string;
  attempts: number;
  last_error_json: string;
  failed_at_ms: number;
  expires_at_ms: number;
  status: DlqStatus;
}

const fromRow = (r: Row): DlqRecord => ({
  dlqId: r.dlq_id,
  agentId: r.agent_id,
  operationType: r.operation_type,
  originalOperation: JSON.parse(r.original_operation_json),
  attempts: r.attempts,
  retryCount: r.attempts - 1,
  lastError: JSON.parse(r.last_error_json) as OperationError,
  failedAtMs: r.failed_at_ms,
  expiresAtMs: r.expires_at_ms,
  status: r.status,
});

export class DeadLetterQueue {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #config: DlqConfig;
  readonly #emit: EventSink;

  constructor(options: DeadLetterQueueOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#config = { ...(options.config ?? DEFAULT_DURABILITY_CONFIG.dlq) };
    this.#emit = options.events ?? ignoreEvents;
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS dlq_records (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        dlq_id TEXT UNIQUE,
        agent_id TEXT NOT NULL,
        operation_type TEXT NOT NULL,
        original_operation_json TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        last_error_json TEXT NOT NULL,
        failed_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'replayed', 'abandoned'))
      );
      -- every access purges by expiry first: keep that a range scan, not a table scan
      CREATE INDEX IF NOT EXISTS dlq_by_expiry ON dlq_records (expires_at_ms);`);
  }

  enqueue(input: EnqueueInput): DlqRecord {
    const ttl = input.ttlSeconds ?? this.#config.defaultTtlSeconds;
    if (!Number.isFinite(ttl) || ttl <= 0) {
      throw new DlqError('DLQ_INVALID_TTL', `ttl_seconds must be a number > 0, got ${ttl} (a record born expired would be purged unseen)`);
    }
    if (!Number.isInteger(input.attempts) || input.attempts < 1) throw new RangeError(`attempts must be an integer >= 1, got ${input.attempts}`);
    const now = this.#clock.nowMs();
    const record = this.#db.transaction(() => {
      const { lastInsertRowid } = this.#db
        .prepare(
          `INSERT INTO dlq_records (agent_id, operation_type, original_operation_json, attempts, last_error_json, failed_at_ms, expires_at_ms, status)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'pending')`,
        )
        .run(input.agentId, input.operationType, canonicalJson(input.originalOperation ?? null), input.attempts, canonicalJson(input.lastError), now, now + ttl * 1000);
      const seq = Number(lastInsertRowid);
      this.#db.prepare(`UPDATE dlq_records SET dlq_id = printf('dlq-%06d', seq) WHERE seq = ?`).run(seq);
      return fromRow(this.#db.prepare('SELECT * FROM dlq_records WHERE seq = ?').get(seq) as Row);
    })();
    this.#emit({ type: 'dlq.enqueued', atMs: now, record });
    return record;
  }

  /** The live record, or undefined when it was never enqueued or its TTL has passed (then it is purged). */
  get(dlqId: string): DlqRecord | undefined {
    return this.#access(undefined, () => this.#row(dlqId)).value;
  }

  /**
   * The record, when it may still move (live and pending): what a replay starts from. Throws
   * DLQ_NOT_FOUND, DLQ_EXPIRED or DLQ_INVALID_TRANSITION (saying it may not `purpose`); moves nothing.
   */
  requirePending(dlqId: string, purpose: string): DlqRecord {
    const { value, expired } = this.#access(dlqId, () => this.#row(dlqId));
    return this.#mayMove(dlqId, value, expired, purpose);
  }

  /** Pending live records, oldest failure first, ties by enqueue order (ours: the original's order was unspecified). */
  listPending(): DlqRecord[] {
    return this.#access(undefined, () => this.#rows(`SELECT * FROM dlq_records WHERE status = 'pending' ORDER BY failed_at_ms, seq`)).value;
  }

  /** Every live record, any status, in enqueue order. */
  list(): DlqRecord[] {
    return this.#access(undefined, () => this.#rows('SELECT * FROM dlq_records ORDER BY seq')).value;
  }

  markReplayed(dlqId: string): DlqRecord {
    return this.#move(dlqId, 'replayed');
  }

  abandon(dlqId: string): DlqRecord {
    return this.#move(dlqId, 'abandoned');
  }

  /** Remove every record (any status) whose TTL has passed: now >= expires_at. Always reports, even 0. */
  cleanupExpired(): number {
    const now = this.#clock.nowMs();
    const removed = this.#db.transaction(() => this.#purge(now))();
    this.#emit({ type: 'dlq.cleanup', atMs: now, removed });
    return removed;
  }

  #move(dlqId: string, to: 'replayed' | 'abandoned'): DlqRecord {
    const { value, expired } = this.#access(dlqId, (now) => {
      const moved = this.#db
        .prepare(`UPDATE dlq_records SET status = ? WHERE dlq_id = ? AND status = 'pending' AND expires_at_ms > ?`)
        .run(to, dlqId, now).changes;
      return { moved: moved > 0, record: this.#row(dlqId) };
    });
    if (!value.moved) return this.#mayMove(dlqId, value.record, expired, `become ${to}`);
    this.#emit({ type: 'dlq.status', atMs: this.#clock.nowMs(), dlqId, from: 'pending', to });
    return value.record as DlqRecord;
  }

  /** Returns the record when it may move; otherwise throws the reason it may not. */
  #mayMove(dlqId: string, record: DlqRecord | undefined, expired: DlqRecord | undefined, purpose: string): DlqRecord {
    if (expired) {
      throw new DlqError(
        'DLQ_EXPIRED',
        `${dlqId} expired at ${expired.expiresAtMs} ms (now ${this.#clock.nowMs()} ms): past its TTL a record may no longer ${purpose}, and it has been purged`,
      );
    }
    if (!record) throw new DlqError('DLQ_NOT_FOUND', `no DLQ record ${dlqId} (never enqueued, or removed after its TTL)`);
    if (record.status !== 'pending') throw new DlqError('DLQ_INVALID_TRANSITION', `${dlqId} is ${record.status}; only a pending record may ${purpose}`);
    return record;
  }

  /**
   * One transaction: note whether the record `about` had expired, purge every expired row (lazily: this
   * is the only cleanup there is besides cleanupExpired), then do `work`. The dlq.cleanup event follows
   * the commit, and only when a row was removed (an access that finds nothing to purge is silent).
   */
  #access<T>(about: string | undefined, work: (now: number) => T): { value: T; expired: DlqRecord | undefined } {
    const now = this.#clock.nowMs();
    const { value, expired, removed } = this.#db.transaction(() => {
      const row = about === undefined ? undefined : (this.#db.prepare('SELECT * FROM dlq_records WHERE dlq_id = ? AND expires_at_ms <= ?').get(about, now) as Row | undefined);
      const purged = this.#purge(now);
      return { value: work(now), expired: row && fromRow(row), removed: purged };
    })();
    if (removed > 0) this.#emit({ type: 'dlq.cleanup', atMs: now, removed });
    return { value, expired };
  }

  #purge(now: number): number {
    return this.#db.prepare('DELETE FROM dlq_records WHERE expires_at_ms <= ?').run(now).changes;
  }

  #row(dlqId: string): DlqRecord | undefined {
    const row = this.#db.prepare('SELECT * FROM dlq_records WHERE dlq_id = ?').get(dlqId) as Row | undefined;
    return row && fromRow(row);
  }

  #rows(sql: string): DlqRecord[] {
    return (this.#db.prepare(sql).all() as Row[]).map(fromRow);
  }
}
