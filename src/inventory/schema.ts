/** The tool side's tables (docs/spec.md §2). The ledger's primary key is the idempotency key: one receipt per key. */
import type Database from 'better-sqlite3';
import { run, SqliteSql, statement, type Sql } from '../core/sql.js';
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

/**
 * The same tables on PostgreSQL. What differs, and why: SQLite's implicit `rowid` is a column here (`rowid`), and
 * its INTEGER PRIMARY KEYs are plain keys — every INSERT numbers its row as SQLite would, max + 1
 * (src/inventory/statements.ts); the virtual clock's ms are bigint (read back as numbers, src/postgres/connection.ts).
 */
export const TOOL_SCHEMA_PG = `
CREATE TABLE items(rowid bigint NOT NULL UNIQUE, item_id text PRIMARY KEY, available integer NOT NULL, version integer NOT NULL);
CREATE TABLE ledger(rowid bigint NOT NULL UNIQUE, key text PRIMARY KEY, fingerprint text NOT NULL, task_id text NOT NULL, item_id text NOT NULL,
                    qty integer NOT NULL, result text NOT NULL, created_at_ms bigint NOT NULL);
CREATE TABLE docs(rowid bigint NOT NULL UNIQUE, doc_id text PRIMARY KEY, title text NOT NULL, body text NOT NULL);
CREATE TABLE history(seq bigint PRIMARY KEY, key text NOT NULL, fingerprint text NOT NULL, task_id text NOT NULL, item_id text NOT NULL,
                     delta integer NOT NULL, at_ms bigint NOT NULL);
CREATE TABLE tombstones(rowid bigint NOT NULL UNIQUE, key text PRIMARY KEY, fingerprint text NOT NULL, task_id text NOT NULL, created_at_ms bigint NOT NULL, purged_at_ms bigint NOT NULL);
CREATE TABLE finished_tasks(rowid bigint NOT NULL UNIQUE, task_id text PRIMARY KEY, finished_at_ms bigint NOT NULL);
CREATE TABLE outbox(id bigint PRIMARY KEY, key text NOT NULL, task_id text NOT NULL, ref text NOT NULL, amount integer NOT NULL,
                    created_at_ms bigint NOT NULL, attempts integer NOT NULL, outcome text, sent_at_ms bigint);
CREATE TABLE charges(seq bigint PRIMARY KEY, charge_id text NOT NULL, ref text NOT NULL, amount integer NOT NULL, at_ms bigint NOT NULL);
`;

const START = {
  item: statement<[string, number, number]>('schema.item', {
    sqlite: 'INSERT INTO items(item_id, available, version) VALUES (?, ?, ?)',
    postgres: 'INSERT INTO items(rowid, item_id, available, version) VALUES ((SELECT coalesce(max(rowid), 0) + 1 FROM items), $1, $2, $3)',
  }),
  doc: statement<[string, string, string]>('schema.doc', {
    sqlite: 'INSERT INTO docs(doc_id, title, body) VALUES (?, ?, ?)',
    postgres: 'INSERT INTO docs(rowid, doc_id, title, body) VALUES ((SELECT coalesce(max(rowid), 0) + 1 FROM docs), $1, $2, $3)',
  }),
};

/** The inventory's items, then its docs, in order, on either database (inside the caller's transaction). */
export function* startingRows(inventory: Inventory): Sql<void> {
  for (const [id, stock] of Object.entries(inventory.items)) yield* run(START.item, id, stock.available, stock.version);
  for (const d of inventory.docs) yield* run(START.doc, d.doc_id, d.title, d.body);
}

export function createToolDatabase(db: Database.Database, inventory: Inventory): void {
  // One transaction, begun and committed by hand: db.transaction() would prepare nine statements on every
  // new connection for this one use.
  db.exec('BEGIN');
  try {
    db.exec(TOOL_SCHEMA);
    SqliteSql.of(db).run(startingRows(inventory));
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
