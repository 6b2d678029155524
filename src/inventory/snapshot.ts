/**
 * What the tool's database holds, read from outside the tool. The harness reads it before and after every
 * request to show (and check) what really changed; it never relies on the tool's own account, so a broken
 * store cannot hide an effect.
 */
import type Database from 'better-sqlite3';
import { readToolTable } from './rows.js';

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

export interface ToolSnapshot {
  items: ItemRow[];
  ledger: LedgerRow[];
}

/** Prepared once per connection: the change count is read around every delivery. */
const changeCounts = new WeakMap<Database.Database, Database.Statement>();

/** Items by item_id, receipts in the order they were written — read through the same statements as a checkpoint's rows. */
export function readSnapshot(db: Database.Database): ToolSnapshot {
  const items = readToolTable(db, 'items').map(([, item_id, available, version]) => ({ item_id, available, version }) as ItemRow);
  const ledger = readToolTable(db, 'ledger').map(
    ([, key, fingerprint, task_id, item_id, qty, result]) => ({ key, fingerprint, task_id, item_id, qty, result: JSON.parse(result as string) as unknown }) as LedgerRow,
  );
  return { items, ledger };
}

/**
 * SQLite's own count of the rows this connection has inserted, updated or deleted since it opened — rolled
 * back or not, so it never goes down. While it stands still, nothing this connection did changed a row: a
 * snapshot read at that count is still the database's content (see WatchedSnapshot).
 */
export function changesSoFar(db: Database.Database): number {
  let count = changeCounts.get(db);
  if (count === undefined) changeCounts.set(db, (count = db.prepare('SELECT total_changes()').pluck()));
  return count.get() as number;
}

/**
 * A snapshot that is read again only when SQLite says a row changed: the harness brackets every delivery
 * with two snapshots, and most deliveries (every read, every replayed receipt) change nothing. Honest for
 * any tool, broken ones included, because the count is SQLite's, not the tool's: the tool is handed this
 * very connection, an in-memory database has no other, and a file is held with an exclusive lock. Only
 * snapshots read outside a transaction are kept: what a rollback undoes must not be shown as content.
 */
export class WatchedSnapshot {
  readonly #db: Database.Database;
  #seen: { changes: number; snapshot: ToolSnapshot } | null = null;
  readonly #others: Database.Statement | null;

  /**
   * `shared`: other connections write to this database too (many workers on one file): their commits are counted
   * by SQLite's `data_version`, which moves whenever another connection commits, added to this one's own count.
   */
  constructor(db: Database.Database, options: { shared?: boolean } = {}) {
    this.#db = db;
    this.#others = options.shared ? db.prepare('PRAGMA data_version').pluck() : null;
  }

  read(): ToolSnapshot {
    // Own changes count one each; another connection's commits move data_version (scaled so the sum never repeats).
    const changes = changesSoFar(this.#db) + (this.#others === null ? 0 : (this.#others.get() as number) * 2 ** 32);
    if (this.#seen !== null && this.#seen.changes === changes) return this.#seen.snapshot;
    const snapshot = readSnapshot(this.#db);
    this.#seen = this.#db.inTransaction ? null : { changes, snapshot };
    return snapshot;
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
  };
}

export function isEmptyDiff(diff: SnapshotDiff): boolean {
  return diff.stock.length === 0 && diff.ledgerAdded.length === 0 && diff.ledgerRemoved.length === 0;
}
