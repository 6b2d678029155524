/**
 * What the tool's database holds, read from outside the tool. The harness reads it before and after every
 * request to show (and check) what really changed; it never relies on the tool's own account, so a broken
 * store cannot hide an effect.
 */
import type Database from 'better-sqlite3';
import { SqliteSql, type Sql, type SqlConnection } from '../core/sql.js';
import { readToolTableOps } from './rows.js';

export interface ItemRow {
  item_id: string;
  available: number;
  version: number;
}

export interface LedgerRow {
  key: string;
  fingerprint: string;
  task_id: string;
  item_id: string;
  qty: number;
  /** The stored receipt, parsed. */
  result: unknown;
}

/** One change of stock the tool made (docs/spec.md §13): −qty a reservation, +qty a release. Never purged. */
export interface HistoryRow {
  seq: number;
  key: string;
  fingerprint: string;
  task_id: string;
  item_id: string;
  delta: number;
  at_ms: number;
}

/** A purged receipt's key, kept when the tool remembers purged keys (rule 3). */
export interface TombstoneRow {
  key: string;
  fingerprint: string;
  task_id: string;
  created_at_ms: number;
  purged_at_ms: number;
}

export interface FinishedTaskRow {
  task_id: string;
  finished_at_ms: number;
}

/** A charge to make, committed with its reservation, and what the relay made of it (docs/spec.md §14.4). */
export interface OutboxRow {
  id: number;
  key: string;
  task_id: string;
  ref: string;
  amount: number;
  created_at_ms: number;
  attempts: number;
  /** null while unsent; `charged` (the relay's send), `found` (its status query found the charge), `declined`, `gave_up`. */
  outcome: string | null;
  sent_at_ms: number | null;
}

/** A charge the remote service really made (docs/spec.md §14). */
export interface ChargeRow {
  seq: number;
  charge_id: string;
  ref: string;
  amount: number;
  at_ms: number;
}

/** The limits' tables, as a snapshot holds them: each only when it has a row, so the chapter's runs read as they always did. */
export interface LimitRows {
  history?: HistoryRow[];
  tombstones?: TombstoneRow[];
  finished?: FinishedTaskRow[];
  outbox?: OutboxRow[];
  charges?: ChargeRow[];
}

export interface ToolSnapshot extends LimitRows {
  items: ItemRow[];
  ledger: LedgerRow[];
}

/**
 * Items by item_id, receipts in the order they were written — read through the same statements as a checkpoint's
 * rows; with `limits`, the limits' tables too (for the 17 they stay empty: the tool writes them only past the chapter).
 */
export function readSnapshot(db: Database.Database, limits = false): ToolSnapshot {
  return SqliteSql.of(db).run(readSnapshotOps(limits));
}

/** The same, on either database (src/core/sql.ts). */
export function* readSnapshotOps(limits = false): Sql<ToolSnapshot> {
  const items = (yield* readToolTableOps('items')).map(([, item_id, available, version]) => ({ item_id, available, version }) as ItemRow);
  const ledger = (yield* readToolTableOps('ledger')).map(
    ([, key, fingerprint, task_id, item_id, qty, result]) => ({ key, fingerprint, task_id, item_id, qty, result: JSON.parse(result as string) as unknown }) as LedgerRow,
  );
  return limits ? { items, ledger, ...(yield* readLimitRows()) } : { items, ledger };
}

function* readLimitRows(): Sql<LimitRows> {
  const rows: LimitRows = {};
  const history = yield* readToolTableOps('history');
  if (history.length > 0) rows.history = history.map(([, seq, key, fingerprint, task_id, item_id, delta, at_ms]) => ({ seq, key, fingerprint, task_id, item_id, delta, at_ms }) as HistoryRow);
  const tombstones = yield* readToolTableOps('tombstones');
  if (tombstones.length > 0) rows.tombstones = tombstones.map(([, key, fingerprint, task_id, created_at_ms, purged_at_ms]) => ({ key, fingerprint, task_id, created_at_ms, purged_at_ms }) as TombstoneRow);
  const finished = yield* readToolTableOps('finished_tasks');
  if (finished.length > 0) rows.finished = finished.map(([, task_id, finished_at_ms]) => ({ task_id, finished_at_ms }) as FinishedTaskRow);
  const outbox = yield* readToolTableOps('outbox');
  if (outbox.length > 0) {
    rows.outbox = outbox.map(([, id, key, task_id, ref, amount, created_at_ms, attempts, outcome, sent_at_ms]) => ({ id, key, task_id, ref, amount, created_at_ms, attempts, outcome, sent_at_ms }) as OutboxRow);
  }
  const charges = yield* readToolTableOps('charges');
  if (charges.length > 0) rows.charges = charges.map(([, seq, charge_id, ref, amount, at_ms]) => ({ seq, charge_id, ref, amount, at_ms }) as ChargeRow);
  return rows;
}

/**
 * SQLite's own count of the rows this connection has inserted, updated or deleted since it opened — rolled
 * back or not, so it never goes down. While it stands still, nothing this connection did changed a row: a
 * snapshot read at that count is still the database's content (see WatchedSnapshot).
 */
export function changesSoFar(db: Database.Database): number {
  return SqliteSql.of(db).changes();
}

/**
 * A snapshot that is read again only when the connection says a row changed: the harness brackets every delivery
 * with two snapshots, and most deliveries (every read, every replayed receipt) change nothing. Honest for
 * any tool, broken ones included, because the count is the connection's, not the tool's (SQLite's own count; on
 * PostgreSQL every statement that may change a row, src/postgres/connection.ts): the tool is handed this very
 * connection, an in-memory database has no other, a file is held with an exclusive lock, and a run's PostgreSQL
 * schema is its own. Only snapshots read outside a transaction are kept: what a rollback undoes must not be shown
 * as content.
 */
export class WatchedSnapshot {
  readonly #sql: SqlConnection;
  readonly #limits: boolean;
  #seen: { changes: number; snapshot: ToolSnapshot } | null = null;
  readonly #others: Database.Statement | null;

  /**
   * `limits`: a scenario past the chapter (docs/spec.md §13–§14): the limits' tables are read too.
   * `shared`: other connections write to this database too (many workers on one SQLite file): their commits are
   * counted by SQLite's `data_version`, which moves whenever another connection commits, added to this one's own count
   * (on PostgreSQL, by the count the run's connections share).
   */
  constructor(db: Database.Database | SqlConnection, options: { limits?: boolean; shared?: boolean } = {}) {
    this.#sql = 'dialect' in db ? db : SqliteSql.of(db);
    this.#limits = options.limits === true;
    // On PostgreSQL the run's connections share one count already (src/postgres/connection.ts `shared`).
    this.#others = options.shared && this.#sql instanceof SqliteSql ? this.#sql.db.prepare('PRAGMA data_version').pluck() : null;
  }

  /** At once: on SQLite. */
  readNow(): ToolSnapshot {
    const read = this.read();
    if (read instanceof Promise) throw new TypeError('a snapshot on PostgreSQL is read asynchronously: read()');
    return read;
  }

  /** At once on SQLite; a promise on PostgreSQL. */
  read(): ToolSnapshot | Promise<ToolSnapshot> {
    // Own changes count one each; another connection's commits move data_version (scaled so the sum never repeats).
    const changes = this.#sql.changes() + (this.#others === null ? 0 : (this.#others.get() as number) * 2 ** 32);
    if (this.#seen !== null && this.#seen.changes === changes) return this.#seen.snapshot;
    const keep = (snapshot: ToolSnapshot): ToolSnapshot => {
      this.#seen = this.#sql.inTransaction ? null : { changes, snapshot };
      return snapshot;
    };
    const ran = this.#sql.run(readSnapshotOps(this.#limits));
    return ran instanceof Promise ? ran.then(keep) : keep(ran);
  }
}

export interface StockChange {
  item: string;
  available: [number, number];
  version: [number, number];
}

export interface SnapshotDiff {
  stock: StockChange[];
  ledgerAdded: LedgerRow[];
  ledgerRemoved: LedgerRow[];
  /** The limits' tables (each only when something changed in it). */
  historyAdded?: HistoryRow[];
  tombstonesAdded?: TombstoneRow[];
  finishedAdded?: FinishedTaskRow[];
  outboxAdded?: OutboxRow[];
  /** Outbox rows the relay updated: as they are after. */
  outboxChanged?: OutboxRow[];
  chargesAdded?: ChargeRow[];
}

export function diffSnapshots(before: ToolSnapshot, after: ToolSnapshot): SnapshotDiff {
  if (before === after) return { stock: [], ledgerAdded: [], ledgerRemoved: [] }; // one unchanged snapshot (WatchedSnapshot)
  const stock: StockChange[] = [];
  const beforeItems = new Map(before.items.map((row) => [row.item_id, row]));
  for (const row of after.items) {
    const old = beforeItems.get(row.item_id);
    if (old === undefined || old.available !== row.available || old.version !== row.version) {
      stock.push({
        item: row.item_id,
        available: [old?.available ?? 0, row.available],
        version: [old?.version ?? 0, row.version],
      });
    }
  }
  const beforeKeys = new Set(before.ledger.map((row) => row.key));
  const afterKeys = new Set(after.ledger.map((row) => row.key));
  return {
    stock,
    ledgerAdded: after.ledger.filter((row) => !beforeKeys.has(row.key)),
    ledgerRemoved: before.ledger.filter((row) => !afterKeys.has(row.key)),
    ...limitsDiff(before, after),
  };
}

/** Rows of `after` whose identity `before` did not have. */
function added<R>(before: readonly R[] | undefined, after: readonly R[] | undefined, id: (row: R) => unknown): R[] {
  const known = new Set((before ?? []).map(id));
  return (after ?? []).filter((row) => !known.has(id(row)));
}

function limitsDiff(before: ToolSnapshot, after: ToolSnapshot): Partial<SnapshotDiff> {
  const diff: Partial<SnapshotDiff> = {};
  const history = added(before.history, after.history, (row) => row.seq);
  if (history.length > 0) diff.historyAdded = history;
  const tombstones = added(before.tombstones, after.tombstones, (row) => row.key);
  if (tombstones.length > 0) diff.tombstonesAdded = tombstones;
  const finished = added(before.finished, after.finished, (row) => row.task_id);
  if (finished.length > 0) diff.finishedAdded = finished;
  const outbox = added(before.outbox, after.outbox, (row) => row.id);
  if (outbox.length > 0) diff.outboxAdded = outbox;
  const was = new Map((before.outbox ?? []).map((row) => [row.id, row]));
  const changed = (after.outbox ?? []).filter((row) => {
    const old = was.get(row.id);
    return old !== undefined && (old.attempts !== row.attempts || old.outcome !== row.outcome || old.sent_at_ms !== row.sent_at_ms);
  });
  if (changed.length > 0) diff.outboxChanged = changed;
  const charges = added(before.charges, after.charges, (row) => row.seq);
  if (charges.length > 0) diff.chargesAdded = charges;
  return diff;
}

export function isEmptyDiff(diff: SnapshotDiff): boolean {
  return (
    diff.stock.length === 0 &&
    diff.ledgerAdded.length === 0 &&
    diff.ledgerRemoved.length === 0 &&
    diff.historyAdded === undefined &&
    diff.tombstonesAdded === undefined &&
    diff.finishedAdded === undefined &&
    diff.outboxAdded === undefined &&
    diff.outboxChanged === undefined &&
    diff.chargesAdded === undefined
  );
}
