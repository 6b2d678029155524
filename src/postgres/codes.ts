/**
 * The messages of src/postgres: why there is no embedded PostgreSQL here, and why one did not start. The
 * catalogues (src/render/words) word them.
 */
export const POSTGRES_CODES = [
  'postgres.unavailable',
  'postgres.reason.platform',
  'postgres.reason.notInstalled',
  'postgres.reason.notHydrated',
  'postgres.startFailed',
  'postgres.initdbFailed',
  'postgres.serverExited',
  'postgres.startLimit',
  'postgres.refused',
  'postgres.unreachable',
  'postgres.logTail',
] as const;

export type PostgresCode = (typeof POSTGRES_CODES)[number];
