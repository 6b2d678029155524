/** The tool side's tables (docs/spec.md §2). The ledger's primary key is the idempotency key: one receipt per key. */
import type Database from 'better-sqlite3';
import type { Inventory } from '../scenario/types.js';

export const TOOL_SCHEMA = `
CREATE TABLE items(item_id TEXT PRIMARY KEY, available INTEGER NOT NULL, version INTEGER NOT NULL);
CREATE TABLE ledger(key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, task_id TEXT NOT NULL, item_id TEXT NOT NULL,
                    qty INTEGER NOT NULL, result TEXT NOT NULL, created_at_ms INTEGER NOT NULL);
CREATE TABLE docs(doc_id TEXT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL);
`;

export function createToolDatabase(db: Database.Database, inventory: Inventory): void {
  // One transaction, begun and committed by hand: db.transaction() would prepare nine statements on every
  // new connection for this one use.
  db.exec('BEGIN');
  try {
    db.exec(TOOL_SCHEMA);
    const item = db.prepare('INSERT INTO items(item_id, available, version) VALUES (?, ?, ?)');
    for (const [id, stock] of Object.entries(inventory.items)) item.run(id, stock.available, stock.version);
    const doc = db.prepare('INSERT INTO docs(doc_id, title, body) VALUES (?, ?, ?)');
    for (const d of inventory.docs) doc.run(d.doc_id, d.title, d.body);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
