import type { Clock } from '../../core/clock.js';
import { canonicalJson } from '../../core/canonical.js';
import { all, get, insert, run, SqliteSql, statement, type Sql, type SqlConnection } from '../../core/sql.js';
import { DEFAULT_DURABILITY_CONFIG } from '../config/defaults.js';
import type { DlqConfig } from '../config/types.js';
import { DlqError } from '../errors.js';
import { ignoreEvents, type EventSink, type OperationError } from '../events.js';
import { runNow, storeConnection, transactionOn, type StoreDb, type Transaction } from '../store.js';
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
 *
 * On either database (src/durability/store.ts): each method's transaction is written once as a generator
 * (`…Ops`), which the plain method runs at once on SQLite; on PostgreSQL the harness runs `…Ops` through
 * `connection`, and the table is the run's schema's.
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
  /** A better-sqlite3 database (the table is made there if missing), or either database's connection (src/core/sql.ts). */
  db: StoreDb;
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

const DLQ_SCHEMA = `
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
  CREATE INDEX IF NOT EXISTS dlq_by_expiry ON dlq_records (expires_at_ms);`;

/** The queue's statements, per dialect (the PostgreSQL tables: PILLARS_SCHEMA_PG, src/durability/store.ts). */
const SQL = {
  // SQLite's AUTOINCREMENT numbers the row; PostgreSQL takes the next number from dlq_sequence in the same statement.
  insert: statement<[string, string, string, number, string, number, number]>('dlq.insert', {
    sqlite: `INSERT INTO dlq_records (agent_id, operation_type, original_operation_json, attempts, last_error_json, failed_at_ms, expires_at_ms, status)
             VALUES (?, ?, ?, ?, ?, ?, ?, 'pending')`,
    postgres: `WITH next AS (INSERT INTO dlq_sequence (one, last) VALUES (true, 1) ON CONFLICT (one) DO UPDATE SET last = dlq_sequence.last + 1 RETURNING last)
               INSERT INTO dlq_records (seq, agent_id, operation_type, original_operation_json, attempts, last_error_json, failed_at_ms, expires_at_ms, status)
               SELECT last, $1::text, $2::text, $3::text, $4::integer, $5::text, $6::bigint, $7::bigint, 'pending' FROM next RETURNING seq`,
  }),
  // printf's %06d pads to six digits and never cuts a longer number: lpad cuts, so it is given the longer width.
  name: statement<[number]>('dlq.name', {
    sqlite: `UPDATE dlq_records SET dlq_id = printf('dlq-%06d', seq) WHERE seq = ?`,
    postgres: `UPDATE dlq_records SET dlq_id = 'dlq-' || lpad(seq::text, greatest(6, length(seq::text)), '0') WHERE seq = $1`,
  }),
  bySeq: statement<[number], Row>('dlq.bySeq', { sqlite: 'SELECT * FROM dlq_records WHERE seq = ?', postgres: 'SELECT * FROM dlq_records WHERE seq = $1' }),
  byId: statement<[string], Row>('dlq.byId', { sqlite: 'SELECT * FROM dlq_records WHERE dlq_id = ?', postgres: 'SELECT * FROM dlq_records WHERE dlq_id = $1' }),
  expired: statement<[string, number], Row>('dlq.expired', {
    sqlite: 'SELECT * FROM dlq_records WHERE dlq_id = ? AND expires_at_ms <= ?',
    postgres: 'SELECT * FROM dlq_records WHERE dlq_id = $1 AND expires_at_ms <= $2',
  }),
  purge: statement<[number]>('dlq.purge', { sqlite: 'DELETE FROM dlq_records WHERE expires_at_ms <= ?', postgres: 'DELETE FROM dlq_records WHERE expires_at_ms <= $1' }),
  pending: statement<[], Row>('dlq.pending', { same: `SELECT * FROM dlq_records WHERE status = 'pending' ORDER BY failed_at_ms, seq` }),
  all: statement<[], Row>('dlq.all', { same: 'SELECT * FROM dlq_records ORDER BY seq' }),
  move: statement<[string, string, number]>('dlq.move', {
    sqlite: `UPDATE dlq_records SET status = ? WHERE dlq_id = ? AND status = 'pending' AND expires_at_ms > ?`,
    postgres: `UPDATE dlq_records SET status = $1 WHERE dlq_id = $2 AND status = 'pending' AND expires_at_ms > $3`,
  }),
};

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
  /** The connection the queue's transactions run on. */
  readonly connection: SqlConnection;
  readonly #transaction: Transaction;
  readonly #clock: Clock;
  readonly #config: DlqConfig;
  readonly #emit: EventSink;

  constructor(options: DeadLetterQueueOptions) {
    this.connection = storeConnection(options.db);
    this.#transaction = transactionOn(this.connection);
    this.#clock = options.clock;
    this.#config = { ...(options.config ?? DEFAULT_DURABILITY_CONFIG.dlq) };
    this.#emit = options.events ?? ignoreEvents;
    if (this.connection instanceof SqliteSql) this.connection.db.exec(DLQ_SCHEMA);
  }

  enqueue(input: EnqueueInput): DlqRecord {
    return runNow(this.connection, this.enqueueOps(input));
  }

  *enqueueOps(input: EnqueueInput): Sql<DlqRecord> {
    const ttl = input.ttlSeconds ?? this.#config.defaultTtlSeconds;
    if (!Number.isFinite(ttl) || ttl <= 0) {
      throw new DlqError('DLQ_INVALID_TTL', `ttl_seconds must be a number > 0, got ${ttl} (a record born expired would be purged unseen)`);
    }
    if (!Number.isInteger(input.attempts) || input.attempts < 1) throw new RangeError(`attempts must be an integer >= 1, got ${input.attempts}`);
    const now = this.#clock.nowMs();
    const record = yield* this.#transaction(this.#enqueueBody(input, now, now + ttl * 1000));
    this.#emit({ type: 'dlq.enqueued', atMs: now, record });
    return record;
  }

  *#enqueueBody(input: EnqueueInput, now: number, expiresAtMs: number): Sql<DlqRecord> {
    const seq = yield* insert(SQL.insert, input.agentId, input.operationType, canonicalJson(input.originalOperation ?? null), input.attempts, canonicalJson(input.lastError), now, expiresAtMs);
    yield* run(SQL.name, seq);
    return fromRow((yield* get(SQL.bySeq, seq))!);
  }

  /** The live record, or undefined when it was never enqueued or its TTL has passed (then it is purged). */
  get(dlqId: string): DlqRecord | undefined {
    return runNow(this.connection, this.getOps(dlqId));
  }

  *getOps(dlqId: string): Sql<DlqRecord | undefined> {
    return (yield* this.#access(undefined, () => this.#row(dlqId))).value;
  }

  /**
   * The record, when it may still move (live and pending): what a replay starts from. Throws
   * DLQ_NOT_FOUND, DLQ_EXPIRED or DLQ_INVALID_TRANSITION (saying it may not `purpose`); moves nothing.
   */
  requirePending(dlqId: string, purpose: string): DlqRecord {
    return runNow(this.connection, this.requirePendingOps(dlqId, purpose));
  }

  *requirePendingOps(dlqId: string, purpose: string): Sql<DlqRecord> {
    const { value, expired } = yield* this.#access(dlqId, () => this.#row(dlqId));
    return this.#mayMove(dlqId, value, expired, purpose);
  }

  /** Pending live records, oldest failure first, ties by enqueue order (ours: the original's order was unspecified). */
  listPending(): DlqRecord[] {
    return runNow(this.connection, this.listPendingOps());
  }

  *listPendingOps(): Sql<DlqRecord[]> {
    return (yield* this.#access(undefined, () => this.#rows(SQL.pending))).value;
  }

  /** Every live record, any status, in enqueue order. */
  list(): DlqRecord[] {
    return runNow(this.connection, this.listOps());
  }

  *listOps(): Sql<DlqRecord[]> {
    return (yield* this.#access(undefined, () => this.#rows(SQL.all))).value;
  }

  markReplayed(dlqId: string): DlqRecord {
    return runNow(this.connection, this.markReplayedOps(dlqId));
  }

  *markReplayedOps(dlqId: string): Sql<DlqRecord> {
    return yield* this.#move(dlqId, 'replayed');
  }

  abandon(dlqId: string): DlqRecord {
    return runNow(this.connection, this.abandonOps(dlqId));
  }

  *abandonOps(dlqId: string): Sql<DlqRecord> {
    return yield* this.#move(dlqId, 'abandoned');
  }

  /** Remove every record (any status) whose TTL has passed: now >= expires_at. Always reports, even 0. */
  cleanupExpired(): number {
    return runNow(this.connection, this.cleanupExpiredOps());
  }

  *cleanupExpiredOps(): Sql<number> {
    const now = this.#clock.nowMs();
    const removed = yield* this.#transaction(run(SQL.purge, now));
    this.#emit({ type: 'dlq.cleanup', atMs: now, removed });
    return removed;
  }

  *#move(dlqId: string, to: 'replayed' | 'abandoned'): Sql<DlqRecord> {
    const { value, expired } = yield* this.#access(dlqId, (now) => this.#moveBody(dlqId, to, now));
    if (!value.moved) return this.#mayMove(dlqId, value.record, expired, `become ${to}`);
    this.#emit({ type: 'dlq.status', atMs: this.#clock.nowMs(), dlqId, from: 'pending', to });
    return value.record as DlqRecord;
  }

  *#moveBody(dlqId: string, to: 'replayed' | 'abandoned', now: number): Sql<{ moved: boolean; record: DlqRecord | undefined }> {
    const moved = yield* run(SQL.move, to, dlqId, now);
    return { moved: moved > 0, record: yield* this.#row(dlqId) };
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
  *#access<T>(about: string | undefined, work: (now: number) => Sql<T>): Sql<{ value: T; expired: DlqRecord | undefined }> {
    const now = this.#clock.nowMs();
    const { value, expired, removed } = yield* this.#transaction(this.#accessBody(about, now, work));
    if (removed > 0) this.#emit({ type: 'dlq.cleanup', atMs: now, removed });
    return { value, expired };
  }

  *#accessBody<T>(about: string | undefined, now: number, work: (now: number) => Sql<T>): Sql<{ value: T; expired: DlqRecord | undefined; removed: number }> {
    const row = about === undefined ? undefined : yield* get(SQL.expired, about, now);
    const removed = yield* run(SQL.purge, now);
    return { value: yield* work(now), expired: row && fromRow(row), removed };
  }

  *#row(dlqId: string): Sql<DlqRecord | undefined> {
    const row = yield* get(SQL.byId, dlqId);
    return row && fromRow(row);
  }

  *#rows(st: typeof SQL.all): Sql<DlqRecord[]> {
    return (yield* all(st)).map(fromRow);
  }
}
