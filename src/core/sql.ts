/**
 * One protocol, two databases. The protocol's code (the tool's transactions, the event log, the snapshots the
 * harness reads) is written once, as generator functions that *yield* statements and receive their answers;
 * an executor runs such a generator against a connection:
 * - SQLite (better-sqlite3): synchronously, each statement prepared once per connection (`SqliteSql`, here) —
 *   the path every run took before, at the same speed;
 * - PostgreSQL (`pg`): asynchronously, one round trip per statement (src/postgres/connection.ts).
 * Each statement that differs between the two is written once per dialect, side by side (`statement`); the
 * differences are said where they are written.
 *
 * A write transaction is `begin()`: on SQLite `BEGIN IMMEDIATE` takes the database's one write lock at once, so
 * two writers take turns per transaction and a transaction never meets a lock halfway; PostgreSQL has no such
 * lock, so its `begin` takes a transaction-scoped advisory lock on the run's schema — the same one-writer-at-a-time
 * rule, released by COMMIT or ROLLBACK (or by the connection's death).
 */
import type Database from 'better-sqlite3';

export type Dialect = 'sqlite' | 'postgres';

/** One statement, written for each dialect. `P`: its parameters, `R`: one row it returns. */
export interface Statement<P extends unknown[] = unknown[], R = unknown> {
  /** Unique among statements: PostgreSQL prepares it under this name once per connection. */
  readonly name: string;
  readonly sqlite: string;
  readonly postgres: string;
  /** Types only. */
  readonly _types?: [P, R];
}

const names = new Set<string>();

/** A statement, its two dialects side by side; `same` when one text is right for both. */
export function statement<P extends unknown[] = unknown[], R = unknown>(name: string, text: { sqlite: string; postgres: string } | { same: string }): Statement<P, R> {
  if (names.has(name)) throw new TypeError(`two statements are named ${name}`);
  names.add(name);
  return 'same' in text ? { name, sqlite: text.same, postgres: text.same } : { name, sqlite: text.sqlite, postgres: text.postgres };
}

/** What a protocol yields: a statement to run (and how), a transaction's edge, or a pause for the caller's hook. */
export type Op =
  | { readonly op: 'get' | 'all' | 'rows' | 'run' | 'insert'; readonly st: Statement; readonly params: readonly unknown[] }
  | { readonly op: 'begin' | 'commit' | 'abandon' }
  | { readonly op: 'hook'; readonly fn: () => void | Promise<void> };

/** A protocol: a generator of statements that returns T. */
export type Sql<T> = Generator<Op, T, unknown>;

/** The first row, or undefined. */
export function* get<P extends unknown[], R>(st: Statement<P, R>, ...params: P): Sql<R | undefined> {
  return (yield { op: 'get', st, params }) as R | undefined;
}

/** Every row, in the statement's order. */
export function* all<P extends unknown[], R>(st: Statement<P, R>, ...params: P): Sql<R[]> {
  return (yield { op: 'all', st, params }) as R[];
}

/** Every row as an array of its columns, in the statement's order (a statement is read this way or by name, not both). */
export function* rows<P extends unknown[]>(st: Statement<P, unknown>, ...params: P): Sql<unknown[][]> {
  return (yield { op: 'rows', st, params }) as unknown[][];
}

/** Run for its effect: the number of rows it changed. */
export function* run<P extends unknown[]>(st: Statement<P, unknown>, ...params: P): Sql<number> {
  return (yield { op: 'run', st, params }) as number;
}

/**
 * An INSERT that returns the new row's key: SQLite's rowid (lastInsertRowid); on PostgreSQL the statement says
 * `RETURNING` that column.
 */
export function* insert<P extends unknown[]>(st: Statement<P, unknown>, ...params: P): Sql<number> {
  return (yield { op: 'insert', st, params }) as number;
}

/** A write transaction begins (see the top of this file). */
export function* begin(): Sql<void> {
  yield { op: 'begin' };
}

/** The transaction commits. */
export function* commit(): Sql<void> {
  yield { op: 'commit' };
}

/**
 * Roll back the open transaction, if the connection is still alive and has one: a crash has already closed
 * the connection, and the database rolled it back — then nothing is touched.
 */
export function* abandon(): Sql<void> {
  yield { op: 'abandon' };
}

/** Let the caller act here (the harness's crash inside a transaction): synchronously on SQLite, awaited on PostgreSQL. */
export function* hook(fn: () => void | Promise<void>): Sql<void> {
  yield { op: 'hook', fn };
}

/** A connection as the protocol meets it: the same operations on either database. */
export interface SqlConnection {
  readonly dialect: Dialect;
  /** Not closed by a crash. */
  readonly open: boolean;
  readonly inTransaction: boolean;
  /** Run a protocol to its end: on SQLite at once, on PostgreSQL as a promise. */
  run<T>(protocol: Sql<T>): T | Promise<T>;
  /**
   * A count that moves whenever this connection changes a row (committed or rolled back): while it stands
   * still, a snapshot read at it is still the content (src/inventory/snapshot.ts).
   */
  changes(): number;
}

/** better-sqlite3's words for a statement on a closed connection: a PostgreSQL connection after a crash says the same. */
export const CLOSED_CONNECTION = 'The database connection is not open';

/** A SQLite connection's executor: each statement prepared on first use, kept for the connection's life. */
export class SqliteSql implements SqlConnection {
  readonly dialect = 'sqlite';
  readonly db: Database.Database;
  readonly #prepared = new Map<Statement, Database.Statement>();
  #changes: Database.Statement | null = null;

  private constructor(db: Database.Database) {
    this.db = db;
  }

  /** The one executor of this connection (its statements are prepared once, whoever runs them). */
  static of(db: Database.Database): SqliteSql {
    let sql = executors.get(db);
    if (sql === undefined) executors.set(db, (sql = new SqliteSql(db)));
    return sql;
  }

  get open(): boolean {
    return this.db.open;
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  run<T>(protocol: Sql<T>): T {
    let input: unknown;
    let error: unknown;
    let failed = false;
    for (;;) {
      const step = failed ? protocol.throw(error) : protocol.next(input);
      if (step.done) return step.value;
      failed = false;
      try {
        input = this.#do(step.value);
      } catch (thrown) {
        failed = true;
        error = thrown;
      }
    }
  }

  changes(): number {
    return (this.#changes ??= this.db.prepare('SELECT total_changes()').pluck()).get() as number;
  }

  /** A prepared statement of this connection. */
  prepared(st: Statement): Database.Statement {
    let found = this.#prepared.get(st);
    if (found === undefined) this.#prepared.set(st, (found = this.db.prepare(st.sqlite)));
    return found;
  }

  #do(op: Op): unknown {
    switch (op.op) {
      case 'get':
        return this.prepared(op.st).get(...op.params);
      case 'all':
        return this.prepared(op.st).all(...op.params);
      case 'rows':
        return this.prepared(op.st).raw(true).all(...op.params);
      case 'run':
        return this.prepared(op.st).run(...op.params).changes;
      case 'insert':
        return Number(this.prepared(op.st).run(...op.params).lastInsertRowid);
      // BEGIN, COMMIT and ROLLBACK are not prepared: a connection runs each once or twice, and `exec` costs a
      // fifth of preparing one (measured with callgrind: ~4,000 instructions against ~22,000).
      case 'begin':
        return this.db.exec('BEGIN IMMEDIATE');
      case 'commit':
        return this.db.exec('COMMIT');
      case 'abandon':
        if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
        return undefined;
      case 'hook': {
        const done = op.fn();
        if (done instanceof Promise) throw new TypeError('a hook on SQLite must act at once');
        return undefined;
      }
    }
  }
}

const executors = new WeakMap<Database.Database, SqliteSql>();

/** The connection as one that answers at once: SQLite's. PostgreSQL's answers asynchronously: run a protocol there with `run`. */
export function atOnce(connection: SqlConnection): SqliteSql {
  if (!(connection instanceof SqliteSql)) throw new TypeError('this is a PostgreSQL connection: run the protocol through it asynchronously (connection.run(…Ops()))');
  return connection;
}
