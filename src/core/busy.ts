/**
 * SQLite's "another connection holds the lock", recognised without importing better-sqlite3: the queue and the
 * mutants reach this from a learner's bundle, which cannot carry the native addon (src/box/compile.ts keeps it
 * external), so nothing a runner imports may load the driver itself.
 *
 * PostgreSQL's many-worker runs say the same with `busyError()`: a connection that never waits for a lock
 * (src/postgres/connection.ts) found the run's write lock taken — the refusal SQLite's BEGIN IMMEDIATE gives.
 */

/** The code of PostgreSQL's refusal (the advisory lock was taken), beside SQLite's own. */
export const LOCK_BUSY = 'FAULTLAB_LOCK_BUSY';

/** True when better-sqlite3 refused because another connection holds the lock, or PostgreSQL's write lock was taken. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code === LOCK_BUSY);
}

/** Another connection holds the run's write lock (PostgreSQL, a connection that never waits). */
export function busyError(): Error {
  return Object.assign(new Error("another connection holds the run's write lock"), { code: LOCK_BUSY });
}
