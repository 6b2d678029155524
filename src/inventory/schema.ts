/** The tool side's tables (docs/spec.md §2). The ledger's primary key is the idempotency key: one receipt per key. */
import type Database from 'better-sqlite3';
import type { Inventory } from '../scenario/types.js';

/**
 * The tables of the chapter's limits (docs/spec.md §13–§14), empty unless a scenario reaches past the chapter:
 * - `history`: every change of stock the tool made (−qty a reservation, +qty a release), written in the same
 *   transaction as the change and never purged — what the tool truly did, when its receipts are gone;
 * - `tombstones`: the key (and fingerprint) of a purged receipt, when the tool remembers purged keys (rule 3);
 * - `finished_tasks`: the tasks closed with `close_task`, kept longer than any receipt (rule 4);
 * - `outbox`: a charge to make, committed in the reservation's own transaction, and what the relay made of it;
 * - `charges`: the remote payment service's own table — every charge it really made, by the caller's reference.
 *   The service lives in the same file but never shares a transaction with the inventory: it is reached only
 *   over the wire, like a service on another machine.
 */
export const LIMITS_SCHEMA = `
CREATE TABLE history(seq INTEGER PRIMARY KEY, key TEXT NOT NULL, fingerprint TEXT NOT NULL, task_id TEXT NOT NULL, item_id TEXT NOT NULL,
                     delta INTEGER NOT NULL, at_ms INTEGER NOT NULL);
CREATE TABLE tombstones(key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, task_id TEXT NOT NULL, created_at_ms INTEGER NOT NULL, purged_at_ms INTEGER NOT NULL);
CREATE TABLE finished_tasks(task_id TEXT PRIMARY KEY, finished_at_ms INTEGER NOT NULL);
CREATE TABLE outbox(id INTEGER PRIMARY KEY, key TEXT NOT NULL, task_id TEXT NOT NULL, ref TEXT NOT NULL, amount INTEGER NOT NULL,
                    created_at_ms INTEGER NOT NULL, attempts INTEGER NOT NULL, outcome TEXT, sent_at_ms INTEGER);
CREATE TABLE charges(seq INTEGER PRIMARY KEY, charge_id TEXT NOT NULL, ref TEXT NOT NULL, amount INTEGER NOT NULL, at_ms INTEGER NOT NULL);
`;

export const TOOL_SCHEMA = `
CREATE TABLE items(item_id TEXT PRIMARY KEY, available INTEGER NOT NULL, version INTEGER NOT NULL);
CREATE TABLE ledger(key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, task_id TEXT NOT NULL, item_id TEXT NOT NULL,
                    qty INTEGER NOT NULL, result TEXT NOT NULL, created_at_ms INTEGER NOT NULL);
CREATE TABLE docs(doc_id TEXT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL);
${LIMITS_SCHEMA}`;

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
