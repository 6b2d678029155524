/**
 * Where checked, finished tasks go (docs/spec.md §19). After every kill the driver checks the whole live file —
 * `PRAGMA integrity_check` included — and a thousand kills cannot each read a file that has grown by every task
 * since the start (measured: 50,000 finished tasks make ~250 MB, and integrity_check alone reads them in ~1 s). So
 * the driver does what a real queue's pruner does (River's job cleaner, Oban's pruner): once a finished task has
 * been checked, it moves the task — its row, its log, its receipt and its token, its item — out of the live file,
 * into an archive file beside it that only the driver opens. The live file holds only what is in flight and what
 * finished since the last check; at the end, the same checks read the archive too.
 *
 * The check and the move are one transaction, BEGIN IMMEDIATE on the live file: while the driver holds the write
 * lock no worker can change a task between its check and its move. A task moved away is gone from the queue: a
 * zombie that comes back for it finds no row to be fenced by, and its write is refused like any stale one.
 */
import type Database from 'better-sqlite3';
import { integrity, runChecks, taskChecks, type FileCheck } from './fileChecks.js';
import { itemOfSql } from './intents.js';

/** The live tables, in the order their rows move (a task's own row last). */
const MOVED = [
  { table: 'events', of: 'task_id' },
  { table: 'ledger', of: 'task_id' },
  { table: 'ledger_tokens', of: 'task_id' },
  { table: 'items', of: null },
  { table: 'tasks', of: 'task_id' },
] as const;

/**
 * Attach the archive file (made with the live file's columns, no keys: a log line keeps its number from the live
 * file, whose numbers may be given again once their rows have moved) and the indexes its checks read.
 */
export function attachArchive(db: Database.Database, path: string): void {
  db.prepare('ATTACH DATABASE ? AS archive').run(path);
  db.pragma('archive.synchronous = OFF'); // only the driver writes it, and a lost driver loses the whole run anyway
  if (db.prepare("SELECT count(*) FROM archive.sqlite_master WHERE name = 'tasks'").pluck().get() !== 0) return;
  for (const { table } of MOVED) db.exec(`CREATE TABLE archive.${table} AS SELECT * FROM main.${table} WHERE 0`);
  db.exec(`
    CREATE INDEX archive.archived_tasks ON tasks(task_id);
    CREATE INDEX archive.archived_items ON items(item_id);
    CREATE INDEX archive.archived_ledger_by_task ON ledger(task_id);
    CREATE INDEX archive.archived_ledger_by_item ON ledger(item_id);
    CREATE INDEX archive.archived_events ON events(task_id, seq);
  `);
}

export interface CheckedMove {
  checks: FileCheck[];
  /** Finished tasks moved to the archive: none when a check broke (the evidence stays where it was found). */
  moved: number;
}

/**
 * One transaction on the live file: every check of its tasks and its integrity, then — if every check held — the
 * finished tasks moved to the archive. SQLITE_BUSY on the BEGIN is thrown as it came, with nothing done: the caller
 * waits and calls again.
 */
export function checkAndArchive(db: Database.Database, file: string): CheckedMove {
  db.exec('BEGIN IMMEDIATE');
  try {
    const checks = [integrity(db, 'main', file), ...runChecks(db, taskChecks('main', false))];
    const moved = checks.every((check) => check.passed) ? moveFinished(db) : 0;
    db.exec('COMMIT');
    return { checks, moved };
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function moveFinished(db: Database.Database): number {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS moving(task_id TEXT PRIMARY KEY); DELETE FROM temp.moving;');
  const moved = db.prepare("INSERT INTO temp.moving SELECT task_id FROM main.tasks WHERE state IN ('done', 'failed')").run().changes;
  if (moved === 0) return 0;
  for (const { table, of } of MOVED) {
    const which = of === null ? `item_id IN (SELECT ${itemOfSql('task_id')} FROM temp.moving)` : `${of} IN (SELECT task_id FROM temp.moving)`;
    db.exec(`INSERT INTO archive.${table} SELECT * FROM main.${table} WHERE ${which}; DELETE FROM main.${table} WHERE ${which};`);
  }
  return moved;
}
