/**
 * What the tool's database holds, read from outside the tool. The harness reads it before and after every
 * request to show (and check) what really changed; it never relies on the tool's own account, so a broken
 * store cannot hide an effect.
 */
import type Database from 'better-sqlite3';

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

/** Prepared once per connection: snapshots are taken around every delivery. */
const statements = new WeakMap<Database.Database, { items: Database.Statement; ledger: Database.Statement }>();

export function readSnapshot(db: Database.Database): ToolSnapshot {
  let s = statements.get(db);
  if (s === undefined) {
    s = {
      items: db.prepare('SELECT item_id, available, version FROM items ORDER BY item_id'),
      ledger: db.prepare('SELECT key, fingerprint, task_id, item_id, qty, result FROM ledger ORDER BY rowid'),
    };
    statements.set(db, s);
  }
  const items = s.items.all() as ItemRow[];
  const ledger = (s.ledger.all() as Array<Omit<LedgerRow, 'result'> & { result: string }>).map((row) => ({
    ...row,
    result: JSON.parse(row.result) as unknown,
  }));
  return { items, ledger };
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
