/**
 * SQLite's "another connection holds the lock", recognised without importing better-sqlite3: the queue and the
 * mutants reach this from a learner's bundle, which cannot carry the native addon (src/box/compile.ts keeps it
 * external), so nothing a runner imports may load the driver itself.
 */

/** True when better-sqlite3 refused because another connection holds the lock. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
