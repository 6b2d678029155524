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
import type { Clock } from '../core/clock.js';
import { canonicalJson } from '../core/canonical.js';
import type { Rng } from '../core/rng.js';
import type { RetentionRule, RetentionSpec } from '../scenario/types.js';
import { refuse } from './refusals.js';
import { fingerprint } from './keys.js';

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
  /** Called inside reserve's transaction after the stock update, before the receipt is written. */
  midTransaction?: () => void;
  /**
   * A holder's fence (many workers, src/queue/QueueStore.ts): checked first inside reserve's transaction — a
   * stale holder is refused with STALE_FENCE before anything is read or written — and the receipt's token
   * recorded in the same transaction. Absent: the chapter's tool, exactly.
   */
  fence?: ToolFence;
}

/** The queue's guard as the tool's transaction meets it: both run on the tool's connection, inside its transaction. */
export interface ToolFence {
  /** Throws ContractError STALE_FENCE unless the holder's grant is still the task's. */
  check(): void;
  /** The receipt just written under this grant: its token, in the same transaction. */
  record(key: string): void;
}

export interface ToolDeps {
  db: Database.Database;
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

export class InventoryTool {
  protected readonly db: Database.Database;
  protected readonly rng: Rng;
  protected readonly clock: Clock;
  protected readonly sql: Statements;
  protected readonly limits: ToolLimits | null;

  constructor(deps: ToolDeps) {
    this.db = deps.db;
    this.rng = deps.rng;
    this.clock = deps.clock;
    this.sql = prepareStatements(this.db);
    this.limits = deps.limits ?? null;
  }

  /** Is this rule of docs/spec.md §13 one the tool enforces? */
  protected rule(rule: RetentionRule): boolean {
    return this.limits?.retention?.rules?.includes(rule) ?? false;
  }

  /** Carry one request; the result is plain JSON data. */
  call(request: ToolRequest, context: ToolContext): unknown {
    const args = request.args ?? {};
    switch (request.name) {
      case 'search_docs':
        return this.searchDocs(requireString(args, 'query', request.name));
      case 'read_doc':
        return this.readDoc(requireString(args, 'doc_id', request.name));
      case 'get_stock':
        return this.getStock(requireString(args, 'item', request.name));
      case 'reserve':
        return this.reserve(args, context);
      case 'release':
        return this.release(args, context);
      case 'close_task':
        return this.closeTask(context);
      default:
        throw refuse('INVALID_ACTION', 'unknownTool', { tool: String(JSON.stringify(request.name)) });
    }
  }

  searchDocs(query: string): string[] {
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.sql.search.all({ p: pattern }).map((row) => row.doc_id);
  }

  readDoc(docId: string): { doc_id: string; title: string; body: string } {
    const doc = this.sql.doc.get(docId);
    if (doc === undefined) throw refuse('NOT_FOUND', 'noDoc', { doc: JSON.stringify(docId) });
    return { ...doc };
  }

  getStock(item: string): StockReading {
    const row = this.sql.item.get(item);
    if (row === undefined) throw refuse('UNKNOWN_ITEM', 'noItem', { item: JSON.stringify(item) });
    return { item, available: row.available, version: row.version };
  }

  /** docs/spec.md §3, in this order, inside one transaction. */
  reserve(rawArgs: Record<string, unknown>, context: ToolContext): Receipt {
    const args = reserveArgs(rawArgs);
    this.sql.begin.run();
    try {
      const receipt = this.reserveInTransaction(args, context);
      this.sql.commit.run(); // the commit point: effect and receipt become visible together
      return receipt;
    } catch (error) {
      // A crash has already closed the connection, which rolled the transaction back: touch nothing.
      if (this.db.open && this.db.inTransaction) this.sql.rollback.run();
      throw error;
    }
  }

  protected reserveInTransaction(args: ReserveRequest, context: ToolContext): Receipt {
    context.fence?.check(); // 0. a stale holder is refused before anything is read or written
    const print = fingerprint(args);
    const stored = this.sql.receipt.get(args.key);
    if (stored !== undefined) {
      // 1. a receipt for this key: the same request again gets the original answer; another payload is refused
      if (stored.fingerprint !== print) {
        throw refuse('PAYLOAD_CONFLICT', 'payloadConflict', { key: args.key, heldItem: stored.item_id, heldQty: stored.qty, item: args.item, qty: args.qty, version: args.expected_version });
      }
      return JSON.parse(stored.result) as Receipt;
    }
    this.checkLimits(args.key, print, args, context); // docs/spec.md §13: after the ledger, before the state
    const item = this.sql.item.get(args.item);
    if (item === undefined) throw refuse('UNKNOWN_ITEM', 'noItem', { item: JSON.stringify(args.item) }); // 2.
    if (item.version !== args.expected_version) {
      throw refuse('STALE_VERSION', 'staleVersion', { expected: args.expected_version, found: item.version }); // 3.
    }
    if (item.available < args.qty) {
      throw refuse('INSUFFICIENT_STOCK', 'insufficientStock', { available: item.available, asked: args.qty }); // 4.
    }
    this.sql.take.run(args.qty, args.item); // 5. the effect ...
    context.midTransaction?.();
    const receipt: Receipt = {
      reservation_id: `res_${this.rng.hex(RESERVATION_ID_HEX)}`,
      item: args.item,
      qty: args.qty,
      available_after: item.available - args.qty,
      version_after: item.version + 1,
    };
    // ... and its receipt, in the same transaction
    this.sql.record.run(args.key, print, context.taskId, args.item, args.qty, canonicalJson(receipt), this.clock.nowMs());
    context.fence?.record(args.key);
    if (this.limits?.history) this.sql.history.run(args.key, print, context.taskId, args.item, -args.qty, this.clock.nowMs());
    // ... and the message to send, if the caller gave one: the outbox of docs/spec.md §14.4
    // (The chapter's tool has no service to send to: it leaves its limits' tables empty, whatever a caller sends.)
    const message = this.limits === null ? null : outboxMessage(args.outbox);
    if (message !== null) this.writeOutbox(args.key, context.taskId, message);
    return receipt;
  }

  /** The outbox row, inside the reservation's transaction (a broken store may put it elsewhere). */
  protected writeOutbox(key: string, taskId: string, message: { ref: string; amount: number }): void {
    this.sql.outbox.run(key, taskId, message.ref, message.amount, this.clock.nowMs());
  }

  /**
   * The rules of docs/spec.md §13 a request meets once the ledger had no receipt for its key, in this order:
   * a purged key's tombstone (rule 3), a finished task (rule 4), the request's deadline (rule 1).
   */
  protected checkLimits(key: string, print: string, args: Record<string, unknown>, context: ToolContext): void {
    const retention = this.limits?.retention;
    if (retention == null) return;
    if (this.rule('refuse_purged_keys')) {
      const tomb = this.sql.tombstone.get(key);
      if (tomb !== undefined) {
        throw refuse('RECEIPT_PURGED', tomb.fingerprint === print ? 'purgedSame' : 'purged', { key, purged: tomb.purged_at_ms, written: tomb.created_at_ms });
      }
    }
    if (this.rule('finished_tasks')) {
      const done = this.sql.finished.get(context.taskId);
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

  /**
   * The tool's purge (docs/spec.md §13): every receipt older than the retention is deleted — and, under rule 2,
   * not before the longest a request may stay valid. Under rule 3 the key stays behind as a tombstone. One
   * transaction; null when nothing was due (or the tool keeps receipts for ever).
   */
  purge(): Purge | null {
    const retention = this.limits?.retention;
    if (retention == null) return null;
    const keepMs = this.keepMs(retention);
    const now = this.clock.nowMs();
    const due = this.sql.dueReceipts.all(now - keepMs);
    if (due.length === 0) return null;
    const tombstones = this.rule('refuse_purged_keys');
    this.sql.begin.run();
    try {
      for (const row of due) {
        if (tombstones) this.sql.bury.run(row.key, row.fingerprint, row.task_id, row.created_at_ms, now);
        this.sql.forget.run(row.key);
      }
      this.sql.commit.run();
    } catch (error) {
      if (this.db.open && this.db.inTransaction) this.sql.rollback.run();
      throw error;
    }
    return { removed: due.map((row) => ({ ...row, result: JSON.parse(row.result) as unknown })), keepMs, tombstones };
  }

  /** How old a receipt may grow: the retention; under rule 2, never less than a request may stay valid. */
  protected keepMs(retention: RetentionSpec): number {
    return this.rule('receipts_outlive_requests') ? Math.max(retention.receipts_ms, retention.requests_ms ?? 0) : retention.receipts_ms;
  }

  /**
   * The compensation of a reservation (docs/spec.md §14.5): the stock back, recorded in the same ledger under its
   * own key, in one transaction — so a retried release meets its receipt instead of releasing twice.
   */
  release(rawArgs: Record<string, unknown>, context: ToolContext): ReleaseReceipt {
    const args = releaseArgs(rawArgs);
    this.sql.begin.run();
    try {
      const receipt = this.releaseInTransaction(args, context);
      this.sql.commit.run();
      return receipt;
    } catch (error) {
      if (this.db.open && this.db.inTransaction) this.sql.rollback.run();
      throw error;
    }
  }

  protected releaseInTransaction(args: ReleaseRequest, context: ToolContext): ReleaseReceipt {
    const print = fingerprint(args);
    const stored = this.sql.receipt.get(args.key);
    if (stored !== undefined) {
      if (stored.fingerprint !== print) throw refuse('PAYLOAD_CONFLICT', 'payloadConflictShort', { key: args.key });
      return JSON.parse(stored.result) as ReleaseReceipt;
    }
    this.checkLimits(args.key, print, args, context);
    const reserved = this.sql.taskReceipts.all(context.taskId).some((row) => (JSON.parse(row.result) as { reservation_id?: unknown }).reservation_id === args.of && row.item_id === args.item && row.qty >= args.qty);
    if (!reserved) throw refuse('NOTHING_TO_RELEASE', 'nothingToRelease', { task: context.taskId, of: args.of, item: args.item, qty: args.qty });
    const item = this.sql.item.get(args.item);
    if (item === undefined) throw refuse('UNKNOWN_ITEM', 'noItem', { item: JSON.stringify(args.item) });
    this.sql.giveBack.run(args.qty, args.item); // the compensating effect ...
    context.midTransaction?.();
    const receipt: ReleaseReceipt = {
      release_id: `rel_${this.rng.hex(RESERVATION_ID_HEX)}`,
      of: args.of,
      item: args.item,
      qty: args.qty,
      available_after: item.available + args.qty,
      version_after: item.version + 1,
    };
    this.recordRelease(args, print, context, receipt);
    return receipt;
  }

  /** ... and its record: a ledger row of −qty, and the history. (A broken store may leave this out.) */
  protected recordRelease(args: ReleaseRequest, print: string, context: ToolContext, receipt: ReleaseReceipt): void {
    this.sql.record.run(args.key, print, context.taskId, args.item, -args.qty, canonicalJson(receipt), this.clock.nowMs());
    if (this.limits?.history) this.sql.history.run(args.key, print, context.taskId, args.item, args.qty, this.clock.nowMs());
  }

  /** The outbox's oldest message nobody has settled yet (docs/spec.md §14.4), or null. */
  outboxNext(): { id: number; task_id: string; ref: string; amount: number; attempts: number } | null {
    return this.sql.outboxNext.get() ?? null;
  }

  /** The relay takes a message for one more attempt: counted and committed before anything is sent. */
  outboxAttempt(id: number): number {
    this.sql.outboxTry.run(id);
    return this.sql.outboxAttempts.get(id)!.attempts;
  }

  /** What became of a message: `charged`, `found` (already charged), `declined` or `gave_up`. Committed. */
  outboxSettle(id: number, outcome: 'charged' | 'found' | 'declined' | 'gave_up'): void {
    this.sql.outboxSettle.run(outcome, outcome === 'charged' || outcome === 'found' ? this.clock.nowMs() : null, id);
  }

  /** The end of a task, kept in `finished_tasks` longer than any receipt (rule 4): a later write of it is refused. */
  closeTask(context: ToolContext): { task: string; finished_at_ms: number } {
    if (this.limits === null) throw refuse('INVALID_ACTION', 'noFinishedTasks');
    const now = this.clock.nowMs();
    this.sql.finish.run(context.taskId, now);
    const done = this.sql.finished.get(context.taskId)!;
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

type Stmt<P extends unknown[] = unknown[], R = unknown> = Database.Statement<P, R>;

/** A statement run for its effect only: BEGIN, COMMIT, ROLLBACK. */
interface Control {
  run(): unknown;
}

interface Statements {
  begin: Control;
  commit: Control;
  rollback: Control;
  history: Stmt;
  outbox: Stmt;
  tombstone: Stmt<[string], { fingerprint: string; created_at_ms: number; purged_at_ms: number }>;
  finished: Stmt<[string], { finished_at_ms: number }>;
  finish: Stmt<[string, number]>;
  dueReceipts: Stmt<[number], { key: string; fingerprint: string; task_id: string; item_id: string; qty: number; result: string; created_at_ms: number }>;
  bury: Stmt<[string, string, string, number, number]>;
  forget: Stmt<[string]>;
  taskReceipts: Stmt<[string], { item_id: string; qty: number; result: string }>;
  giveBack: Stmt<[number, string]>;
  outboxNext: Stmt<[], { id: number; task_id: string; ref: string; amount: number; attempts: number }>;
  outboxTry: Stmt<[number]>;
  outboxAttempts: Stmt<[number], { attempts: number }>;
  outboxSettle: Stmt<[string, number | null, number]>;
  search: Stmt<[{ p: string }], { doc_id: string }>;
  doc: Stmt<[string], { doc_id: string; title: string; body: string }>;
  item: Stmt<[string], { available: number; version: number }>;
  receipt: Stmt<[string], { fingerprint: string; result: string; item_id: string; qty: number }>;
  take: Stmt<[number, string]>;
  record: Stmt;
}

/** One set per connection, shared by every tool built on it (a connection kept between runs keeps them). */
const preparedOn = new WeakMap<Database.Database, Statements>();

/**
 * Each statement is prepared on first use and kept for the connection's life: a run opens new connections
 * after every crash, and most runs never need most of these (a read-only task never reserves). BEGIN, COMMIT
 * and ROLLBACK are not prepared at all: a connection runs each once or twice, and `exec` costs a fifth of
 * preparing one (measured with callgrind: ~4,000 instructions against ~22,000).
 */
function prepareStatements(db: Database.Database): Statements {
  const known = preparedOn.get(db);
  if (known !== undefined) return known;
  const sql = {
    begin: { run: () => db.exec('BEGIN IMMEDIATE') },
    commit: { run: () => db.exec('COMMIT') },
    rollback: { run: () => db.exec('ROLLBACK') },
  } as Statements;
  for (const [name, text] of Object.entries(STATEMENT_SQL)) {
    Object.defineProperty(sql, name, {
      configurable: true,
      enumerable: true,
      get() {
        const statement = db.prepare(text);
        Object.defineProperty(sql, name, { value: statement, enumerable: true });
        return statement;
      },
    });
  }
  preparedOn.set(db, sql);
  return sql;
}

const STATEMENT_SQL: Record<Exclude<keyof Statements, 'begin' | 'commit' | 'rollback'>, string> = {
  search: "SELECT doc_id FROM docs WHERE title LIKE @p ESCAPE '\\' OR body LIKE @p ESCAPE '\\' ORDER BY doc_id",
  doc: 'SELECT doc_id, title, body FROM docs WHERE doc_id = ?',
  item: 'SELECT available, version FROM items WHERE item_id = ?',
  receipt: 'SELECT fingerprint, result, item_id, qty FROM ledger WHERE key = ?',
  take: 'UPDATE items SET available = available - ?, version = version + 1 WHERE item_id = ?',
  record: 'INSERT INTO ledger(key, fingerprint, task_id, item_id, qty, result, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
  history: 'INSERT INTO history(key, fingerprint, task_id, item_id, delta, at_ms) VALUES (?, ?, ?, ?, ?, ?)',
  outbox: 'INSERT INTO outbox(key, task_id, ref, amount, created_at_ms, attempts) VALUES (?, ?, ?, ?, ?, 0)',
  tombstone: 'SELECT fingerprint, created_at_ms, purged_at_ms FROM tombstones WHERE key = ?',
  finished: 'SELECT finished_at_ms FROM finished_tasks WHERE task_id = ?',
  finish: 'INSERT OR IGNORE INTO finished_tasks(task_id, finished_at_ms) VALUES (?, ?)',
  dueReceipts: 'SELECT key, fingerprint, task_id, item_id, qty, result, created_at_ms FROM ledger WHERE created_at_ms <= ? ORDER BY rowid',
  bury: 'INSERT OR REPLACE INTO tombstones(key, fingerprint, task_id, created_at_ms, purged_at_ms) VALUES (?, ?, ?, ?, ?)',
  forget: 'DELETE FROM ledger WHERE key = ?',
  taskReceipts: 'SELECT item_id, qty, result FROM ledger WHERE task_id = ? AND qty > 0 ORDER BY rowid',
  giveBack: 'UPDATE items SET available = available + ?, version = version + 1 WHERE item_id = ?',
  outboxNext: 'SELECT id, task_id, ref, amount, attempts FROM outbox WHERE outcome IS NULL ORDER BY id LIMIT 1',
  outboxTry: 'UPDATE outbox SET attempts = attempts + 1 WHERE id = ?',
  outboxAttempts: 'SELECT attempts FROM outbox WHERE id = ?',
  outboxSettle: 'UPDATE outbox SET outcome = ?, sent_at_ms = ? WHERE id = ?',
};

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
