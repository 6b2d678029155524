/** The one database many workers share, as the harness meets it on either kind (databases.ts opens it). */
import type { SqlConnection } from '../../core/sql.js';

export interface WorkersDatabase {
  readonly kind: 'file' | 'postgres';
  /** A new connection of its own (a process starting, or starting again after a crash). */
  connect(): Promise<SqlConnection>;
  /** One process's crash: its connection closes, and whatever it had not committed is rolled back. */
  crash(connection: SqlConnection): void;
  /** Every crashed connection is gone (on PostgreSQL, its lock with it): nobody else moves before. */
  settled(): Promise<void>;
  /** End of run: every connection closed, the database removed unless kept. */
  dispose(): Promise<void>;
}
