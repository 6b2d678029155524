/**
 * The tool's statements, each written once per dialect, side by side (src/core/sql.ts). Where PostgreSQL's text
 * differs from SQLite's, the reason is one of these, said once here:
 * - parameters are `?` in SQLite, `$n` in PostgreSQL;
 * - SQLite gives every table a `rowid`, and a new row `max(rowid) + 1` (an `INTEGER PRIMARY KEY` is that rowid);
 *   PostgreSQL tables carry it as a column (schema.ts), and an INSERT computes it the same way — not from a
 *   sequence, which a rolled-back INSERT would still move on, so that the same run numbers its rows the same on
 *   both. Every INSERT runs inside the tool's write transaction or alone, one writer at a time (sql.ts `begin`);
 * - `INSERT OR IGNORE` / `OR REPLACE` are `ON CONFLICT … DO NOTHING` / `DO UPDATE`;
 * - SQLite's LIKE ignores ASCII case, PostgreSQL's does not: ILIKE; and text is ordered byte by byte as SQLite
 *   does (`COLLATE "C"`), whatever the server's default collation.
 */
import { statement } from '../core/sql.js';

type Ms = number;

/** `(SELECT coalesce(max(col), 0) + 1 FROM table)`: the next rowid, as SQLite gives it. */
const next = (table: string, column = 'rowid') => `(SELECT coalesce(max(${column}), 0) + 1 FROM ${table})`;

export const SQL = {
  // The pattern is given twice: better-sqlite3 takes no numbered parameter (?1).
  search: statement<[string, string], { doc_id: string }>('tool.search', {
    sqlite: "SELECT doc_id FROM docs WHERE title LIKE ? ESCAPE '\\' OR body LIKE ? ESCAPE '\\' ORDER BY doc_id",
    postgres: `SELECT doc_id FROM docs WHERE title ILIKE $1 ESCAPE '\\' OR body ILIKE $2 ESCAPE '\\' ORDER BY doc_id COLLATE "C"`,
  }),
  doc: statement<[string], { doc_id: string; title: string; body: string }>('tool.doc', {
    sqlite: 'SELECT doc_id, title, body FROM docs WHERE doc_id = ?',
    postgres: 'SELECT doc_id, title, body FROM docs WHERE doc_id = $1',
  }),
  item: statement<[string], { available: number; version: number }>('tool.item', {
    sqlite: 'SELECT available, version FROM items WHERE item_id = ?',
    postgres: 'SELECT available, version FROM items WHERE item_id = $1',
  }),
  receipt: statement<[string], { fingerprint: string; result: string; item_id: string; qty: number }>('tool.receipt', {
    sqlite: 'SELECT fingerprint, result, item_id, qty FROM ledger WHERE key = ?',
    postgres: 'SELECT fingerprint, result, item_id, qty FROM ledger WHERE key = $1',
  }),
  // The reservation's two reads in one statement (one round trip on PostgreSQL): its key's receipt, if any, and the
  // item's stock and version, if it exists — read in one snapshot under the write lock, judged in the order of
  // docs/spec.md §3 (the ledger first).
  lookup: statement<[string, string], { fingerprint: string | null; result: string | null; item_id: string | null; qty: number | null; available: number | null; version: number | null }>('tool.lookup', {
    sqlite: 'SELECT l.fingerprint, l.result, l.item_id, l.qty, i.available, i.version FROM (SELECT 1) LEFT JOIN ledger l ON l.key = ? LEFT JOIN items i ON i.item_id = ?',
    postgres: 'SELECT l.fingerprint, l.result, l.item_id, l.qty, i.available, i.version FROM (SELECT 1) AS one LEFT JOIN ledger l ON l.key = $1 LEFT JOIN items i ON i.item_id = $2',
  }),
  take: statement<[number, string]>('tool.take', {
    sqlite: 'UPDATE items SET available = available - ?, version = version + 1 WHERE item_id = ?',
    postgres: 'UPDATE items SET available = available - $1, version = version + 1 WHERE item_id = $2',
  }),
  giveBack: statement<[number, string]>('tool.giveBack', {
    sqlite: 'UPDATE items SET available = available + ?, version = version + 1 WHERE item_id = ?',
    postgres: 'UPDATE items SET available = available + $1, version = version + 1 WHERE item_id = $2',
  }),
  record: statement<[string, string, string, string, number, string, Ms]>('tool.record', {
    sqlite: 'INSERT INTO ledger(key, fingerprint, task_id, item_id, qty, result, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
    postgres: `INSERT INTO ledger(rowid, key, fingerprint, task_id, item_id, qty, result, created_at_ms) VALUES (${next('ledger')}, $1, $2, $3, $4, $5, $6, $7)`,
  }),
  history: statement<[string, string, string, string, number, Ms]>('tool.history', {
    sqlite: 'INSERT INTO history(key, fingerprint, task_id, item_id, delta, at_ms) VALUES (?, ?, ?, ?, ?, ?)',
    postgres: `INSERT INTO history(seq, key, fingerprint, task_id, item_id, delta, at_ms) VALUES (${next('history', 'seq')}, $1, $2, $3, $4, $5, $6)`,
  }),
  outbox: statement<[string, string, string, number, Ms]>('tool.outbox', {
    sqlite: 'INSERT INTO outbox(key, task_id, ref, amount, created_at_ms, attempts) VALUES (?, ?, ?, ?, ?, 0)',
    postgres: `INSERT INTO outbox(id, key, task_id, ref, amount, created_at_ms, attempts) VALUES (${next('outbox', 'id')}, $1, $2, $3, $4, $5, 0)`,
  }),
  tombstone: statement<[string], { fingerprint: string; created_at_ms: Ms; purged_at_ms: Ms }>('tool.tombstone', {
    sqlite: 'SELECT fingerprint, created_at_ms, purged_at_ms FROM tombstones WHERE key = ?',
    postgres: 'SELECT fingerprint, created_at_ms, purged_at_ms FROM tombstones WHERE key = $1',
  }),
  finished: statement<[string], { finished_at_ms: Ms }>('tool.finished', {
    sqlite: 'SELECT finished_at_ms FROM finished_tasks WHERE task_id = ?',
    postgres: 'SELECT finished_at_ms FROM finished_tasks WHERE task_id = $1',
  }),
  finish: statement<[string, Ms]>('tool.finish', {
    sqlite: 'INSERT OR IGNORE INTO finished_tasks(task_id, finished_at_ms) VALUES (?, ?)',
    postgres: `INSERT INTO finished_tasks(rowid, task_id, finished_at_ms) VALUES (${next('finished_tasks')}, $1, $2) ON CONFLICT (task_id) DO NOTHING`,
  }),
  dueReceipts: statement<[Ms], { key: string; fingerprint: string; task_id: string; item_id: string; qty: number; result: string; created_at_ms: Ms }>('tool.dueReceipts', {
    sqlite: 'SELECT key, fingerprint, task_id, item_id, qty, result, created_at_ms FROM ledger WHERE created_at_ms <= ? ORDER BY rowid',
    postgres: 'SELECT key, fingerprint, task_id, item_id, qty, result, created_at_ms FROM ledger WHERE created_at_ms <= $1 ORDER BY rowid',
  }),
  // SQLite's REPLACE deletes the old row and inserts a new one, numbered after the others; so does this UPDATE.
  bury: statement<[string, string, string, Ms, Ms]>('tool.bury', {
    sqlite: 'INSERT OR REPLACE INTO tombstones(key, fingerprint, task_id, created_at_ms, purged_at_ms) VALUES (?, ?, ?, ?, ?)',
    postgres: `INSERT INTO tombstones(rowid, key, fingerprint, task_id, created_at_ms, purged_at_ms) VALUES (${next('tombstones')}, $1, $2, $3, $4, $5)
               ON CONFLICT (key) DO UPDATE SET rowid = excluded.rowid, fingerprint = excluded.fingerprint, task_id = excluded.task_id,
               created_at_ms = excluded.created_at_ms, purged_at_ms = excluded.purged_at_ms`,
  }),
  forget: statement<[string]>('tool.forget', {
    sqlite: 'DELETE FROM ledger WHERE key = ?',
    postgres: 'DELETE FROM ledger WHERE key = $1',
  }),
  taskReceipts: statement<[string], { item_id: string; qty: number; result: string }>('tool.taskReceipts', {
    sqlite: 'SELECT item_id, qty, result FROM ledger WHERE task_id = ? AND qty > 0 ORDER BY rowid',
    postgres: 'SELECT item_id, qty, result FROM ledger WHERE task_id = $1 AND qty > 0 ORDER BY rowid',
  }),
  outboxNext: statement<[], { id: number; task_id: string; ref: string; amount: number; attempts: number }>('tool.outboxNext', {
    same: 'SELECT id, task_id, ref, amount, attempts FROM outbox WHERE outcome IS NULL ORDER BY id LIMIT 1',
  }),
  outboxTry: statement<[number]>('tool.outboxTry', {
    sqlite: 'UPDATE outbox SET attempts = attempts + 1 WHERE id = ?',
    postgres: 'UPDATE outbox SET attempts = attempts + 1 WHERE id = $1',
  }),
  outboxAttempts: statement<[number], { attempts: number }>('tool.outboxAttempts', {
    sqlite: 'SELECT attempts FROM outbox WHERE id = ?',
    postgres: 'SELECT attempts FROM outbox WHERE id = $1',
  }),
  outboxSettle: statement<[string, Ms | null, number]>('tool.outboxSettle', {
    sqlite: 'UPDATE outbox SET outcome = ?, sent_at_ms = ? WHERE id = ?',
    postgres: 'UPDATE outbox SET outcome = $1, sent_at_ms = $2 WHERE id = $3',
  }),
};
