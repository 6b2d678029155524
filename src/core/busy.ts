/**
 * SQLITE_BUSY, recognised by its code alone: this module imports no driver, so a store that only needs to know
 * (the queue, its mutants) stays loadable where better-sqlite3 is not — a grader's box runs a learner file that
 * imports the mutants' catalogue from a temporary folder with no node_modules.
 */

/** True when better-sqlite3 refused because another connection holds the lock. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
