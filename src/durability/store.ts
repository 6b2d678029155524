/**
 * The pillars' stores on either database (src/core/sql.ts). A store's transactions are written once, as
 * generators of statements (`…Ops`); its plain methods — the `faultlab/durability` API, on better-sqlite3 —
 * run the same generators at once, exactly as they always ran:
 * - on SQLite a store's transaction is better-sqlite3's `db.transaction` (BEGIN, or a SAVEPOINT when the caller
 *   already holds one: the dead letter written inside the log's own save);
 * - on PostgreSQL it is `begin`…`commit` (src/postgres/connection.ts), or nothing at all when the connection is
 *   already inside a transaction — the save's hook, whose statements then commit or roll back with the event.
 * On PostgreSQL the stores' tables are made with the run's schema (`PILLARS_SCHEMA_PG`), not by a constructor.
 */
import type Database from 'better-sqlite3';
import { abandon, atOnce, begin, commit, SqliteSql, type Sql, type SqlConnection } from '../core/sql.js';

/** A store's connection: a better-sqlite3 database (the public API), or either database's executor. */
export type StoreDb = Database.Database | SqlConnection;

/** How a store's statements run as one transaction on its connection. */
export type Transaction = <T>(body: Sql<T>) => Sql<T>;

export function storeConnection(db: StoreDb): SqlConnection {
  return 'dialect' in db ? db : SqliteSql.of(db);
}

/** The store's transaction on this connection (see the top of this file). */
export function transactionOn(connection: SqlConnection): Transaction {
  if (connection instanceof SqliteSql) {
    const { db } = connection;
    return function* <T>(body: Sql<T>): Sql<T> {
      return db.transaction(() => connection.run(body))();
    };
  }
  return function* <T>(body: Sql<T>): Sql<T> {
    if (connection.inTransaction) return yield* body;
    yield* begin();
    try {
      const value = yield* body;
      yield* commit();
      return value;
    } catch (error) {
      yield* abandon();
      throw error;
    }
  };
}

/** Run a store's protocol at once: SQLite only (a PostgreSQL connection runs it asynchronously, `connection.run(…Ops())`). */
export function runNow<T>(connection: SqlConnection, protocol: Sql<T>): T {
  return atOnce(connection).run(protocol);
}

/**
 * The pillars' tables on PostgreSQL, in a run's schema beside the tool's and the log's. What differs from SQLite's
 * (made by the constructors, CREATE TABLE IF NOT EXISTS): `dlq_records.seq` is SQLite's AUTOINCREMENT — numbered
 * from `dlq_sequence`, a counter that commits or rolls back with its row, so a number is never handed out twice
 * even once its record was purged (PostgreSQL's own sequences do not roll back) — and the ms are bigint.
 */
export const PILLARS_SCHEMA_PG = `
CREATE TABLE dlq_records(seq bigint PRIMARY KEY, dlq_id text UNIQUE, agent_id text NOT NULL, operation_type text NOT NULL,
                         original_operation_json text NOT NULL, attempts integer NOT NULL, last_error_json text NOT NULL,
                         failed_at_ms bigint NOT NULL, expires_at_ms bigint NOT NULL,
                         status text NOT NULL CHECK (status IN ('pending', 'replayed', 'abandoned')));
CREATE INDEX dlq_by_expiry ON dlq_records (expires_at_ms);
CREATE TABLE dlq_sequence(one boolean PRIMARY KEY CHECK (one), last bigint NOT NULL);
CREATE TABLE breaker_state(dependency text PRIMARY KEY, state text NOT NULL CHECK (state IN ('closed', 'open', 'half_open')),
                           window_json text NOT NULL, opened_at_ms bigint, probes_json text NOT NULL,
                           probe_successes integer NOT NULL, next_ticket integer NOT NULL, closed_since_ticket integer NOT NULL);
`;

/** The pillars' tables a run's schema holds (emptied before the next run on it). */
export const PILLARS_TABLES = ['dlq_records', 'dlq_sequence', 'breaker_state'] as const;
