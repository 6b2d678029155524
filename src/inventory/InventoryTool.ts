/**
 * The inventory service: the tool side of docs/spec.md §2–§3.
 *
 * Guarantee: a reservation's effect (stock decremented, version bumped) and its receipt (the ledger row
 * keyed by the idempotency key) become visible together or not at all. The COMMIT at the end of
 * `reserve` is the one write that makes both true; a crash before it leaves neither.
 *
 * The order of the checks inside the transaction is part of the protocol: the ledger is consulted
 * *before* the version, so a faithful retry whose first attempt already moved the version gets its
 * original receipt back instead of STALE_VERSION.
 */
import type Database from 'better-sqlite3';
import { abandon, begin, commit, get, all, hook, run, atOnce, SqliteSql, type Sql, type SqlConnection } from '../core/sql.js';
import type { Clock } from '../core/clock.js';
import { canonicalJson } from '../core/canonical.js';
import type { Rng } from '../core/rng.js';
import type { RetentionRule, RetentionSpec } from '../scenario/types.js';
import { refuse } from './refusals.js';
import { fingerprint } from './keys.js';
import { SQL } from './statements.js';

export interface Receipt {
  reservation_id: string;
  item: string;
  qty: number;
  available_after: number;
  version_after: number;
}

export interface StockReading {
  item: string;
  available: number;
  version: number;
}

export interface ToolRequest {
  name: string;
  args: Record<string, unknown>;
}

export interface ToolContext {
  /** The task on whose behalf the request is made; stored with the receipt. */
  taskId: string;
  /**
   * Called inside reserve's transaction after the stock update, before the receipt is written (the harness's
   * crash before the commit). At once on SQLite; on PostgreSQL it may be awaited (it reads a snapshot there).
   */
  midTransaction?: () => void | Promise<void>;
  /**
   * A holder's fence (many workers, src/queue/QueueStore.ts): checked first inside reserve's transaction — a
   * stale holder is refused with STALE_FENCE before anything is read or written — and the receipt's token
   * recorded in the same transaction. Absent: the chapter's tool, exactly.
   */
  fence?: ToolFence;
}

/** The queue's guard as the tool's transaction meets it: both run on the tool's connection, inside its transaction. */
export interface ToolFence {
  /** Throws ContractError STALE_FENCE unless the holder's grant is still the task's (statements on the tool's connection). */
  check(): Sql<void>;
  /** The receipt just written under this grant: its token, in the same transaction. */
  record(key: string): Sql<void>;
}

export interface ToolDeps {
  /** A SQLite connection (its protocol then also runs at once through `call`), or either database's connection. */
  db: Database.Database | SqlConnection;
  rng: Rng;
  clock: Clock;
  /** What the tool does beyond the chapter (docs/spec.md §13): absent, the chapter's tool exactly. */
  limits?: ToolLimits;
}

/** The tool's settings past the chapter: how long it keeps receipts, and whether it writes its history. */
export interface ToolLimits {
  /** null: receipts are kept for ever (the chapter's tool). */
  retention: RetentionSpec | null;
  /** Write every change of stock to `history` (any scenario that reaches past the chapter). */
  history: boolean;
}

/** A receipt the purge deleted, as the trace shows it. */
export interface PurgedReceipt {
  key: string;
  fingerprint: string;
  task_id: string;
  item_id: string;
  qty: number;
  result: unknown;
  created_at_ms: number;
}

export interface Purge {
  removed: PurgedReceipt[];
  /** How old a receipt may grow before it is purged (the retention, or the requests' validity when rule 2 keeps it longer). */
  keepMs: number;
  /** Rule 3: the purge left each key's tombstone. */
  tombstones: boolean;
}

export interface ReleaseReceipt {
  release_id: string;
  /** The reservation this compensates. */
  of: string;
  item: string;
  qty: number;
  available_after: number;
  version_after: number;
}

/** Digits of the random part of a reservation id: a replayed receipt shows the same id, a new one cannot. */
const RESERVATION_ID_HEX = 6;

/** The connection a tool's dependencies name, as an executor. */
export function connectionOf(db: Database.Database | SqlConnection): SqlConnection {
  return 'dialect' in db ? db : SqliteSql.of(db);
}

/**
 * The tool's protocol is written once, as generators of statements (src/core/sql.ts: `…Ops` methods); `ops`
 * is the whole of a request. On SQLite the plain methods (`call`, `reserve`, `purge`, …) run the same
 * generators at once; on PostgreSQL the harness runs `ops` through its asynchronous connection.
 */
export class InventoryTool {
  /** The connection the tool's transactions run on. */
  readonly connection: SqlConnection;
  protected readonly rng: Rng;
  protected readonly clock: Clock;
  protected readonly limits: ToolLimits | null;

  constructor(deps: ToolDeps) {
    this.connection = connectionOf(deps.db);
    this.rng = deps.rng;
    this.clock = deps.clock;
    this.limits = deps.limits ?? null;
  }

  /** Run a protocol at once: on SQLite only (PostgreSQL's connection answers asynchronously: run `ops` there). */
  protected now<T>(protocol: Sql<T>): T {
    return atOnce(this.connection).run(protocol);
  }

  /** Is this rule of docs/spec.md §13 one the tool enforces? */
  protected rule(rule: RetentionRule): boolean {
    return this.limits?.retention?.rules?.includes(rule) ?? false;
  }

  /** Carry one request, at once (SQLite); the result is plain JSON data. */
  call(request: ToolRequest, context: ToolContext): unknown {
    return this.now(this.ops(request, context));
  }

  /** One request, as the statements it runs; the result is plain JSON data. */
  *ops(request: ToolRequest, context: ToolContext): Sql<unknown> {
    const args = request.args ?? {};
    switch (request.name) {
      case 'search_docs':
        return yield* this.searchDocsOps(requireString(args, 'query', request.name));
      case 'read_doc':
        return yield* this.readDocOps(requireString(args, 'doc_id', request.name));
      case 'get_stock':
        return yield* this.getStockOps(requireString(args, 'item', request.name));
      case 'reserve':
        return yield* this.reserveOps(args, context);
      case 'release':
        return yield* this.releaseOps(args, context);
      case 'close_task':
        return yield* this.closeTaskOps(context);
      default:
        throw refuse('INVALID_ACTION', 'unknownTool', { tool: String(JSON.stringify(request.name)) });
    }
  }

  getStock(item: string): StockReading {
    return this.now(this.getStockOps(item));
  }

  reserve(rawArgs: Record<string, unknown>, context: ToolContext): Receipt {
    return this.now(this.reserveOps(rawArgs, context));
  }

  *searchDocsOps(query: string): Sql<string[]> {
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return (yield* all(SQL.search, pattern, pattern)).map((row) => row.doc_id);
  }

  *readDocOps(docId: string): Sql<{ doc_id: string; title: string; body: string }> {
    const doc = yield* get(SQL.doc, docId);
    if (doc === undefined) throw refuse('NOT_FOUND', 'noDoc', { doc: JSON.stringify(docId) });
    return { doc_id: doc.doc_id, title: doc.title, body: doc.body };
  }

  *getStockOps(item: string): Sql<StockReading> {
    const row = yield* get(SQL.item, item);
    if (row === undefined) throw refuse('UNKNOWN_ITEM', 'noItem', { item: JSON.stringify(item) });
    return { item, available: row.available, version: row.version };
  }

  /** docs/spec.md §3, in this order, inside one transaction. */
  *reserveOps(rawArgs: Record<string, unknown>, context: ToolContext): Sql<Receipt> {
    const args = reserveArgs(rawArgs);
    yield* begin();
    try {
      const receipt = yield* this.reserveInTransaction(args, context);
      yield* commit(); // the commit point: effect and receipt become visible together
      return receipt;
    } catch (error) {
      yield* abandon(); // a crash has already closed the connection, which rolled the transaction back: then nothing
      throw error;
    }
  }

  protected *reserveInTransaction(args: ReserveRequest, context: ToolContext): Sql<Receipt> {
    if (context.fence) yield* context.fence.check(); // 0. a stale holder is refused before anything is read or written
    const print = fingerprint(args);
    const found = (yield* get(SQL.lookup, args.key, args.item))!; // the key's receipt and the item, in one read
    const stored = found.fingerprint === null ? undefined : { fingerprint: found.fingerprint, result: found.result!, item_id: found.item_id!, qty: found.qty! };
    if (stored !== undefined) {
      // 1. a receipt for this key: the same request again gets the original answer; another payload is refused
      if (stored.fingerprint !== print) {
        throw refuse('PAYLOAD_CONFLICT', 'payloadConflict', { key: args.key, heldItem: stored.item_id, heldQty: stored.qty, item: args.item, qty: args.qty, version: args.expected_version });
      }
      return JSON.parse(stored.result) as Receipt;
    }
    yield* this.checkLimits(args.key, print, args, context); // docs/spec.md §13: after the ledger, before the state
    const item = found.version === null ? undefined : { available: found.available!, version: found.version };
    if (item === undefined) throw refuse('UNKNOWN_ITEM', 'noItem', { item: JSON.stringify(args.item) }); // 2.
    if (item.version !== args.expected_version) {
      throw refuse('STALE_VERSION', 'staleVersion', { expected: args.expected_version, found: item.version }); // 3.
    }
    if (item.available < args.qty) {
      throw refuse('INSUFFICIENT_STOCK', 'insufficientStock', { available: item.available, asked: args.qty }); // 4.
    }
    yield* run(SQL.take, args.qty, args.item); // 5. the effect ...
    yield* this.afterTake(context);
    const receipt: Receipt = {
      reservation_id: `res_${this.rng.hex(RESERVATION_ID_HEX)}`,
      item: args.item,
      qty: args.qty,
      available_after: item.available - args.qty,
      version_after: item.version + 1,
    };
    // ... and its receipt, in the same transaction
    yield* run(SQL.record, args.key, print, context.taskId, args.item, args.qty, canonicalJson(receipt), this.clock.nowMs());
    if (context.fence) yield* context.fence.record(args.key);
    if (this.limits?.history) yield* run(SQL.history, args.key, print, context.taskId, args.item, -args.qty, this.clock.nowMs());
    // ... and the message to send, if the caller gave one: the outbox of docs/spec.md §14.4
    // (The chapter's tool has no service to send to: it leaves its limits' tables empty, whatever a caller sends.)
    const message = this.limits === null ? null : outboxMessage(args.outbox);
    if (message !== null) yield* this.writeOutbox(args.key, context.taskId, message);
    return receipt;
  }

  /** The caller's moment inside the transaction, after the effect, before its record (a broken store may commit around it). */
  protected *midTransaction(context: ToolContext): Sql<void> {
    if (context.midTransaction) yield* hook(context.midTransaction);
  }

  /** Between the reservation's effect and its receipt (a broken store commits here). */
  protected *afterTake(context: ToolContext): Sql<void> {
    yield* this.midTransaction(context);
  }

  /** The outbox row, inside the reservation's transaction (a broken store may put it elsewhere). */
  protected *writeOutbox(key: string, taskId: string, message: { ref: string; amount: number }): Sql<void> {
    yield* run(SQL.outbox, key, taskId, message.ref, message.amount, this.clock.nowMs());
  }

  /**
   * The rules of docs/spec.md §13 a request meets once the ledger had no receipt for its key, in this order:
   * a purged key's tombstone (rule 3), a finished task (rule 4), the request's deadline (rule 1).
   */
  protected *checkLimits(key: string, print: string, args: Record<string, unknown>, context: ToolContext): Sql<void> {
    const retention = this.limits?.retention;
    if (retention == null) return;
    if (this.rule('refuse_purged_keys')) {
      const tomb = yield* get(SQL.tombstone, key);
      if (tomb !== undefined) {
        throw refuse('RECEIPT_PURGED', tomb.fingerprint === print ? 'purgedSame' : 'purged', { key, purged: tomb.purged_at_ms, written: tomb.created_at_ms });
      }
    }
    if (this.rule('finished_tasks')) {
      const done = yield* get(SQL.finished, context.taskId);
      if (done !== undefined) throw refuse('TASK_FINISHED', 'taskFinished', { task: context.taskId, ms: done.finished_at_ms });
    }
    if (this.rule('deadline')) {
      const deadline = args.not_after_ms;
      const now = this.clock.nowMs();
      if (typeof deadline !== 'number' || !Number.isInteger(deadline)) {
        throw refuse('INVALID_ACTION', 'noDeadline');
      }
      const validity = retention.requests_ms ?? 0;
      if (deadline > now + validity) {
        throw refuse('INVALID_ACTION', 'deadlineTooFar', { deadline, validity, now });
      }
      if (now > deadline) throw refuse('EXPIRED', 'expired', { deadline, now });
    }
  }

  /** The purge, at once (SQLite). */
  purge(): Purge | null {
    return this.now(this.purgeOps());
  }

  /**
   * The tool's purge (docs/spec.md §13): every receipt older than the retention is deleted — and, under rule 2,
   * not before the longest a request may stay valid. Under rule 3 the key stays behind as a tombstone. One
   * transaction; null when nothing was due (or the tool keeps receipts for ever).
   */
  *purgeOps(): Sql<Purge | null> {
    const retention = this.limits?.retention;
    if (retention == null) return null;
    const keepMs = this.keepMs(retention);
    const now = this.clock.nowMs();
    const due = yield* all(SQL.dueReceipts, now - keepMs);
    if (due.length === 0) return null;
    const tombstones = this.rule('refuse_purged_keys');
    yield* begin();
    try {
      for (const row of due) {
        if (tombstones) yield* run(SQL.bury, row.key, row.fingerprint, row.task_id, row.created_at_ms, now);
        yield* run(SQL.forget, row.key);
      }
      yield* commit();
    } catch (error) {
      yield* abandon();
      throw error;
    }
    return { removed: due.map((row) => ({ key: row.key, fingerprint: row.fingerprint, task_id: row.task_id, item_id: row.item_id, qty: row.qty, result: JSON.parse(row.result) as unknown, created_at_ms: row.created_at_ms })), keepMs, tombstones };
  }

  /** How old a receipt may grow: the retention; under rule 2, never less than a request may stay valid. */
  protected keepMs(retention: RetentionSpec): number {
    return this.rule('receipts_outlive_requests') ? Math.max(retention.receipts_ms, retention.requests_ms ?? 0) : retention.receipts_ms;
  }

  /**
   * The compensation of a reservation (docs/spec.md §14.5): the stock back, recorded in the same ledger under its
   * own key, in one transaction — so a retried release meets its receipt instead of releasing twice.
   */
  *releaseOps(rawArgs: Record<string, unknown>, context: ToolContext): Sql<ReleaseReceipt> {
    const args = releaseArgs(rawArgs);
    yield* begin();
    try {
      const receipt = yield* this.releaseInTransaction(args, context);
      yield* commit();
      return receipt;
    } catch (error) {
      yield* abandon();
      throw error;
    }
  }

  protected *releaseInTransaction(args: ReleaseRequest, context: ToolContext): Sql<ReleaseReceipt> {
    const print = fingerprint(args);
    const stored = yield* get(SQL.receipt, args.key);
    if (stored !== undefined) {
      if (stored.fingerprint !== print) throw refuse('PAYLOAD_CONFLICT', 'payloadConflictShort', { key: args.key });
      return JSON.parse(stored.result) as ReleaseReceipt;
    }
    yield* this.checkLimits(args.key, print, args, context);
    const reserved = (yield* all(SQL.taskReceipts, context.taskId)).some((row) => (JSON.parse(row.result) as { reservation_id?: unknown }).reservation_id === args.of && row.item_id === args.item && row.qty >= args.qty);
    if (!reserved) throw refuse('NOTHING_TO_RELEASE', 'nothingToRelease', { task: context.taskId, of: args.of, item: args.item, qty: args.qty });
    const item = yield* get(SQL.item, args.item);
    if (item === undefined) throw refuse('UNKNOWN_ITEM', 'noItem', { item: JSON.stringify(args.item) });
    yield* run(SQL.giveBack, args.qty, args.item); // the compensating effect ...
    yield* this.midTransaction(context);
    const receipt: ReleaseReceipt = {
      release_id: `rel_${this.rng.hex(RESERVATION_ID_HEX)}`,
      of: args.of,
      item: args.item,
      qty: args.qty,
      available_after: item.available + args.qty,
      version_after: item.version + 1,
    };
    yield* this.recordRelease(args, print, context, receipt);
    return receipt;
  }

  /** ... and its record: a ledger row of −qty, and the history. (A broken store may leave this out.) */
  protected *recordRelease(args: ReleaseRequest, print: string, context: ToolContext, receipt: ReleaseReceipt): Sql<void> {
    yield* run(SQL.record, args.key, print, context.taskId, args.item, -args.qty, canonicalJson(receipt), this.clock.nowMs());
    if (this.limits?.history) yield* run(SQL.history, args.key, print, context.taskId, args.item, args.qty, this.clock.nowMs());
  }

  /** The outbox's oldest message nobody has settled yet (docs/spec.md §14.4), or null. */
  *outboxNextOps(): Sql<{ id: number; task_id: string; ref: string; amount: number; attempts: number } | null> {
    return (yield* get(SQL.outboxNext)) ?? null;
  }

  /** The relay takes a message for one more attempt: counted and committed before anything is sent. */
  *outboxAttemptOps(id: number): Sql<number> {
    yield* run(SQL.outboxTry, id);
    return (yield* get(SQL.outboxAttempts, id))!.attempts;
  }

  /** What became of a message: `charged`, `found` (already charged), `declined` or `gave_up`. Committed. */
  *outboxSettleOps(id: number, outcome: 'charged' | 'found' | 'declined' | 'gave_up'): Sql<void> {
    yield* run(SQL.outboxSettle, outcome, outcome === 'charged' || outcome === 'found' ? this.clock.nowMs() : null, id);
  }

  /** The end of a task, kept in `finished_tasks` longer than any receipt (rule 4): a later write of it is refused. */
  *closeTaskOps(context: ToolContext): Sql<{ task: string; finished_at_ms: number }> {
    if (this.limits === null) throw refuse('INVALID_ACTION', 'noFinishedTasks');
    const now = this.clock.nowMs();
    yield* run(SQL.finish, context.taskId, now);
    const done = (yield* get(SQL.finished, context.taskId))!;
    return { task: context.taskId, finished_at_ms: done.finished_at_ms };
  }
}

/** The message a reserve asks to be sent, `outbox: { charge: { ref, amount } }`, or null. */
function outboxMessage(value: unknown): { ref: string; amount: number } | null {
  if (value === undefined) return null;
  const charge = (value as { charge?: { ref?: unknown; amount?: unknown } } | null)?.charge;
  if (typeof charge?.ref !== 'string' || charge.ref === '' || !Number.isInteger(charge.amount) || (charge.amount as number) < 1) {
    throw refuse('INVALID_ACTION', 'badOutbox');
  }
  return { ref: charge.ref, amount: charge.amount as number };
}

export interface ReserveRequest {
  item: string;
  qty: number;
  expected_version: number;
  key: string;
  [extra: string]: unknown;
}

function requireString(args: Record<string, unknown>, field: string, tool: string): string {
  const value = args[field];
  if (typeof value !== 'string') {
    throw refuse('INVALID_ACTION', 'needsString', { tool, field, got: JSON.stringify(value) ?? 'nothing' });
  }
  return value;
}

function reserveArgs(args: Record<string, unknown>): ReserveRequest {
  const { item, qty, expected_version, key } = args;
  if (typeof item !== 'string') throw refuse('INVALID_ACTION', 'needsStringItem', { tool: 'reserve' });
  if (typeof qty !== 'number' || !Number.isInteger(qty) || qty < 1) {
    throw refuse('INVALID_ACTION', 'needsPositiveQty', { tool: 'reserve', got: String(JSON.stringify(qty)) });
  }
  if (typeof expected_version !== 'number' || !Number.isInteger(expected_version)) {
    throw refuse('INVALID_ACTION', 'needsIntegerVersion', { tool: 'reserve', got: String(JSON.stringify(expected_version)) });
  }
  if (typeof key !== 'string' || key.length === 0) {
    throw refuse('INVALID_ACTION', 'needsKey', { tool: 'reserve' });
  }
  return { ...args, item, qty, expected_version, key };
}

export interface ReleaseRequest {
  item: string;
  qty: number;
  of: string;
  key: string;
  [extra: string]: unknown;
}

function releaseArgs(args: Record<string, unknown>): ReleaseRequest {
  const { item, qty, of, key } = args;
  if (typeof item !== 'string') throw refuse('INVALID_ACTION', 'needsStringItem', { tool: 'release' });
  if (typeof qty !== 'number' || !Number.isInteger(qty) || qty < 1) throw refuse('INVALID_ACTION', 'needsPositiveQty', { tool: 'release', got: String(JSON.stringify(qty)) });
  if (typeof of !== 'string' || of === '') throw refuse('INVALID_ACTION', 'needsOf');
  if (typeof key !== 'string' || key.length === 0) throw refuse('INVALID_ACTION', 'needsKey', { tool: 'release' });
  return { ...args, item, qty, of, key };
}

/** The tool implementation a run meets: the real one, or a deliberately broken store (src/mutants). */
export type ToolClass = new (deps: ToolDeps) => InventoryTool;
