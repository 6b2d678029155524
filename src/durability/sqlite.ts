import Database from 'better-sqlite3';

/**
 * The pillars keep all state in SQLite so that a simulated crash loses nothing committed. A crash is
 * real: the connection is closed and a new one is opened on what was committed — the same file, or for
 * an in-memory database the committed image (`serialize()` between transactions).
 */

export type Db = Database.Database;

export interface OpenOptions {
  /**
   * How long a connection waits for another's write lock before SQLITE_BUSY, in real milliseconds.
   * 0 for the race scenario (single-threaded: waiting could never end); better-sqlite3's 5000 otherwise.
   */
  busyTimeoutMs?: number;
}

export function openDatabase(path = ':memory:', options: OpenOptions = {}): Db {
  const db = new Database(path, { timeout: options.busyTimeoutMs ?? 5_000 });
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  return db;
}

/**
 * Simulate a process crash: drop the connection and open a new one on what was committed. Only safe
 * between transactions (a crash inside one is a rollback, which closing already gives a file database).
 */
export function crashAndReopen(db: Db, options: OpenOptions = {}): Db {
  if (db.memory) {
    if (db.inTransaction) throw new Error('crashAndReopen: an in-memory database cannot be crashed inside a transaction');
    const image = db.serialize();
    db.close();
    return new Database(image, { timeout: options.busyTimeoutMs ?? 5_000 });
  }
  const path = db.name;
  db.close();
  return openDatabase(path, options);
}

/** True when better-sqlite3 refused because another connection holds the lock. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
