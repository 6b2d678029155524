import type { Clock } from '../../core/clock.js';
import { canonicalJson } from '../../core/canonical.js';
import { DEFAULT_DURABILITY_CONFIG } from '../config/defaults.js';
import type { IdempotencyConfig } from '../config/types.js';
import { StoreBusyError } from '../errors.js';
import { ignoreEvents, type DurabilityEvent, type EventSink } from '../events.js';
import { isBusy } from '../../core/busy.js';
import type { Db } from '../../core/storage.js';
import { keyByteLength } from '../../core/key.js';

/**
 * Invariant: within the dedup window, a key holding a recorded result is answered New at most once; every
 * later caller is answered Duplicate and handed the original result. A key holding only a placeholder (its
 * operation still running) is answered New at most once per in-progress lease. A record is live while its
 * age is strictly below the window; a placeholder, while its age is also strictly below
 * in_progress_expiration_seconds. Commit point: the INSERT (or takeover UPDATE) of the placeholder row in
 * checkAndRecord's IMMEDIATE transaction — the read and the write happen under one write lock, so of many
 * racing connections exactly one commits that row.
 * `record` replaces the placeholder (and restarts the window); `release` deletes a placeholder whose
 * operation failed, so the failure does not block the key for an hour (ours). The lease (ours, after AWS
 * Powertools' in_progress_expiration): a placeholder left by a caller that crashed blocks its key only
 * until the lease ends; then the next checkAndRecord takes the key over and its `idempotency.new` event
 * says so. The store cannot tell a crashed caller from a slow one: a caller that outlives its lease may
 * still record or release after the takeover, so the lease must exceed the longest run, retries included.
 * Cleanup is lazy: a check purges expired rows when cleanup_interval_seconds have passed since the last
 * purge. No timers.
 */

/** An in-progress placeholder whose lease had ended: New, and checkAndRecord takes the key over. */
export interface LeaseExpired {
  /** When the placeholder was stored (by a caller now taken to have crashed). */
  placeholderAtMs: number;
  /** When its lease ended: placeholderAtMs + in_progress_expiration_seconds. */
  expiredAtMs: number;
}

export type CheckResult =
  | { kind: 'new'; skipped?: 'key_too_long' | 'disabled'; leaseExpired?: LeaseExpired }
  | {
      kind: 'duplicate';
      originalResult: unknown;
      originalTimestampMs: number;
      dedupWindowExpiresAtMs: number;
      /** The original is still running (its placeholder is all there is). */
      inProgress: boolean;
      /** In progress only: when its lease ends and the key may be taken over (never after the window ends). */
      inProgressExpiresAtMs?: number;
    };

export type RecordStatus = 'in_progress' | 'done';

export interface IdempotencyRecord {
  key: string;
  status: RecordStatus;
  result: unknown;
  recordedAtMs: number;
}

export interface IdempotencyStoreOptions {
  db: Db;
  clock: Clock;
  config?: IdempotencyConfig;
  events?: EventSink;
}

interface Row {
  key: string;
  status: RecordStatus;
  result_json: string;
  recorded_at_ms: number;
}

export class IdempotencyStore {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #config: IdempotencyConfig;
  readonly #emit: EventSink;

  constructor(options: IdempotencyStoreOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#config = { ...(options.config ?? DEFAULT_DURABILITY_CONFIG.idempotency) };
    this.#emit = options.events ?? ignoreEvents;
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS idempotency_records (
        key TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('in_progress', 'done')),
        result_json TEXT NOT NULL,
        recorded_at_ms INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS idempotency_meta (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        last_cleanup_ms INTEGER NOT NULL
      );`);
    this.#db.prepare('INSERT OR IGNORE INTO idempotency_meta (id, last_cleanup_ms) VALUES (1, ?)').run(this.#clock.nowMs());
  }

  get config(): Readonly<IdempotencyConfig> {
    return this.#config;
  }

  /** Read-only question: has this key been seen within the window? */
  check(key: string): CheckResult {
    const skipped = this.#skip(key);
    if (skipped) return skipped;
    const pending: DurabilityEvent[] = [];
    const result = this.#transaction(`check(${key})`, 'deferred', pending, () => this.#answer(key));
    this.#flush(pending);
    return result;
  }

  /**
   * Atomic compare-and-set: Duplicate if the key is live, else store `placeholder` and answer New.
   * `whileLocked` runs inside the write transaction after the read — a seam for the race scenario and
   * tests, to let a second connection try at the worst moment. Throws StoreBusyError (nothing written)
   * when another connection holds the write lock past the busy timeout.
   */
  checkAndRecord(key: string, placeholder: unknown, hooks: { whileLocked?: () => void } = {}): CheckResult {
    const skipped = this.#skip(key);
    if (skipped) return skipped;
    const pending: DurabilityEvent[] = [];
    const result = this.#transaction(`checkAndRecord(${key})`, 'immediate', pending, () => {
      const answer = this.#answer(key);
      hooks.whileLocked?.();
      if (answer.kind === 'duplicate') return answer;
      this.#db
        .prepare(
          `INSERT INTO idempotency_records (key, status, result_json, recorded_at_ms) VALUES (?, 'in_progress', ?, ?)
           ON CONFLICT (key) DO UPDATE SET status = excluded.status, result_json = excluded.result_json,
             recorded_at_ms = excluded.recorded_at_ms`,
        )
        .run(key, canonicalJson(placeholder ?? null), this.#clock.nowMs());
      return answer;
    });
    pending.push(
      result.kind === 'new'
        ? { type: 'idempotency.new', atMs: this.#clock.nowMs(), key, ...(result.leaseExpired ? { leaseExpired: result.leaseExpired } : {}) }
        : this.#duplicateEvent(key, result),
    );
    this.#flush(pending);
    return result;
  }

  /** Store the real result; the window restarts now. */
  record(key: string, result: unknown): void {
    if (this.#skipReason(key)) return;
    const now = this.#clock.nowMs();
    this.#db
      .prepare(
        `INSERT INTO idempotency_records (key, status, result_json, recorded_at_ms) VALUES (?, 'done', ?, ?)
         ON CONFLICT (key) DO UPDATE SET status = 'done', result_json = excluded.result_json, recorded_at_ms = excluded.recorded_at_ms`,
      )
      .run(key, canonicalJson(result ?? null), now);
    this.#emit({ type: 'idempotency.recorded', atMs: now, key, dedupWindowExpiresAtMs: now + this.#windowMs() });
  }

  /** Remove the placeholder of a failed operation. A recorded result is never released. */
  release(key: string): boolean {
    if (this.#skipReason(key)) return false;
    const removed = this.#db.prepare(`DELETE FROM idempotency_records WHERE key = ? AND status = 'in_progress'`).run(key).changes > 0;
    this.#emit({ type: 'idempotency.released', atMs: this.#clock.nowMs(), key, removed });
    return removed;
  }

  /**
   * One transaction that first purges what has expired (lazily, no timers), then does `work`. A store
   * another connection keeps busy past the timeout is a typed StoreBusyError: nothing was written.
   */
  #transaction<T>(what: string, mode: 'deferred' | 'immediate', pending: DurabilityEvent[], work: () => T): T {
    const run = this.#db.transaction(() => {
      this.#lazyCleanup(pending);
      return work();
    });
    try {
      return run[mode]();
    } catch (error) {
      if (isBusy(error)) throw new StoreBusyError(what, error);
      throw error;
    }
  }

  /** Delete every record whose window has ended; returns how many. */
  cleanupExpired(): number {
    const pending: DurabilityEvent[] = [];
    const removed = this.#db.transaction(() => this.#purge(pending))();
    this.#flush(pending);
    return removed;
  }

  /** The stored row, live or not (for traces and tests). */
  peek(key: string): IdempotencyRecord | undefined {
    const row = this.#db.prepare('SELECT * FROM idempotency_records WHERE key = ?').get(key) as Row | undefined;
    return row && { key: row.key, status: row.status, result: JSON.parse(row.result_json), recordedAtMs: row.recorded_at_ms };
  }

  /** Rows stored, expired ones included until a cleanup removes them. */
  size(): number {
    return (this.#db.prepare('SELECT COUNT(*) AS n FROM idempotency_records').get() as { n: number }).n;
  }

  #windowMs(): number {
    return this.#config.dedupWindowSeconds * 1000;
  }

  #skipReason(key: string): 'disabled' | 'key_too_long' | undefined {
    if (!this.#config.enabled) return 'disabled';
    if (keyByteLength(key) > this.#config.maxKeyLength) return 'key_too_long';
    return undefined;
  }

  #skip(key: string): CheckResult | undefined {
    const reason = this.#skipReason(key);
    if (!reason) return undefined;
    this.#emit({
      type: 'idempotency.skipped',
      atMs: this.#clock.nowMs(),
      key,
      reason,
      keyBytes: keyByteLength(key),
      maxKeyLength: this.#config.maxKeyLength,
    });
    return { kind: 'new', skipped: reason };
  }

  #answer(key: string): CheckResult {
    const row = this.#db.prepare('SELECT * FROM idempotency_records WHERE key = ?').get(key) as Row | undefined;
    const now = this.#clock.nowMs();
    if (!row || now - row.recorded_at_ms >= this.#windowMs()) return { kind: 'new' };
    const windowEndsMs = row.recorded_at_ms + this.#windowMs();
    const inProgress = row.status === 'in_progress';
    const leaseEndsMs = row.recorded_at_ms + this.#config.inProgressExpirationSeconds * 1000;
    if (inProgress && now >= leaseEndsMs) return { kind: 'new', leaseExpired: { placeholderAtMs: row.recorded_at_ms, expiredAtMs: leaseEndsMs } };
    return {
      kind: 'duplicate',
      originalResult: JSON.parse(row.result_json),
      originalTimestampMs: row.recorded_at_ms,
      dedupWindowExpiresAtMs: windowEndsMs,
      inProgress,
      ...(inProgress ? { inProgressExpiresAtMs: Math.min(leaseEndsMs, windowEndsMs) } : {}),
    };
  }

  #duplicateEvent(key: string, d: Extract<CheckResult, { kind: 'duplicate' }>): DurabilityEvent {
    const { originalTimestampMs, dedupWindowExpiresAtMs, inProgress } = d;
    return { type: 'idempotency.duplicate', atMs: this.#clock.nowMs(), key, inProgress, originalTimestampMs, dedupWindowExpiresAtMs };
  }

  #lazyCleanup(pending: DurabilityEvent[]): void {
    const { last_cleanup_ms: last } = this.#db.prepare('SELECT last_cleanup_ms FROM idempotency_meta WHERE id = 1').get() as {
      last_cleanup_ms: number;
    };
    if (this.#clock.nowMs() - last >= this.#config.cleanupIntervalSeconds * 1000) this.#purge(pending);
  }

  #purge(pending: DurabilityEvent[]): number {
    const now = this.#clock.nowMs();
    const removed = this.#db.prepare('DELETE FROM idempotency_records WHERE recorded_at_ms + ? <= ?').run(this.#windowMs(), now).changes;
    this.#db.prepare('UPDATE idempotency_meta SET last_cleanup_ms = ? WHERE id = 1').run(now);
    pending.push({ type: 'idempotency.cleanup', atMs: now, removed });
    return removed;
  }

  #flush(pending: DurabilityEvent[]): void {
    for (const event of pending) this.#emit(event);
  }
}
