/**
 * The protocol's executor on PostgreSQL (src/core/sql.ts): runs a generator of statements on one `pg`
 * connection, one round trip per statement, awaiting each answer before the generator goes on.
 *
 * - Each statement is prepared under its name, once per connection (`pg` keeps named statements per client).
 * - `begin` is `BEGIN` and a transaction-scoped advisory lock on the run's schema: SQLite's `BEGIN IMMEDIATE`
 *   takes the database's one write lock at the start of the transaction, PostgreSQL has no such lock; the
 *   advisory lock gives the same rule (one writing transaction at a time on this schema, waited for at BEGIN,
 *   never halfway), and COMMIT, ROLLBACK or the connection's death release it. READ COMMITTED, PostgreSQL's
 *   default: under that lock nothing else writes, so every read sees what the last commit left.
 * - A statement that fails inside a transaction aborts it (PostgreSQL refuses everything after until ROLLBACK);
 *   the protocol's `abandon` rolls it back, as on SQLite.
 * - `changes()` counts every statement that may change a row (run, insert, rollback): the harness's snapshot
 *   is read again only when it moved (src/inventory/snapshot.ts). A run's schema is its own: no other
 *   connection writes there while the harness reads.
 * - `close()` is a crash's: the connection is really closed (the server rolls back what it had not committed
 *   and drops its locks); any statement after it fails as a closed SQLite connection does.
 * - Many workers (src/sim/workers): a connection made with `neverWait` never waits on the lock — the harness moves one
 *   actor at a time, so a wait would block them all: its `begin` *tries* the lock, and a refusal rolls back and throws
 *   the "busy" SQLite's BEGIN IMMEDIATE gives (src/core/busy.ts). The run's connections share one `changes` count
 *   (`shared`), moved by every write and every COMMIT of any of them: SQLite's `data_version` for the snapshots.
 * - bigint columns (the virtual clock's ms, the rows' numbers, a SUM) are read as JavaScript numbers: every
 *   value faultlab writes is far below 2^53.
 */
import pg from 'pg';
import { busyError } from '../core/busy.js';
import { CLOSED_CONNECTION, type Op, type Sql, type SqlConnection } from '../core/sql.js';

const INT8 = 20;

/** `pg`'s type parsers, bigint as a number. */
export const NUMBER_TYPES = {
  getTypeParser: ((oid: number, format?: string) => (oid === INT8 ? Number : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser,
};

/** How a connection of many workers behaves (see the top of this file). */
export interface PgSqlOptions {
  /** `begin` tries the run's write lock and throws busy when it is taken, instead of waiting for it. */
  neverWait?: boolean;
  /** A count shared by the run's connections: every write and every COMMIT of any of them moves it. */
  shared?: { changes: number };
}

export class PgSql implements SqlConnection {
  readonly dialect = 'postgres';
  readonly client: pg.Client;
  #open = true;
  #inTransaction = false;
  readonly #count: { changes: number };
  readonly #neverWait: boolean;
  readonly #shared: boolean;

  constructor(client: pg.Client, options: PgSqlOptions = {}) {
    this.client = client;
    this.#count = options.shared ?? { changes: 0 };
    this.#shared = options.shared !== undefined;
    this.#neverWait = options.neverWait === true;
  }

  /** A new connection to `url` whose unqualified names resolve in `schema` (the run's own). */
  static async connect(url: string, schema: string, options: PgSqlOptions = {}): Promise<PgSql> {
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}`, types: NUMBER_TYPES });
    // A connection the server ends (its database dropped WITH (FORCE), the server stopped) fails its next statement;
    // the event the client emits as well is not an uncaught error.
    client.on('error', () => undefined);
    await client.connect();
    return new PgSql(client, options);
  }

  get open(): boolean {
    return this.#open;
  }

  get inTransaction(): boolean {
    return this.#inTransaction;
  }

  changes(): number {
    return this.#count.changes;
  }

  async run<T>(protocol: Sql<T>): Promise<T> {
    let input: unknown;
    let error: unknown;
    let failed = false;
    for (;;) {
      const step = failed ? protocol.throw(error) : protocol.next(input);
      if (step.done) return step.value;
      failed = false;
      try {
        input = await this.#do(step.value);
      } catch (thrown) {
        failed = true;
        error = thrown;
      }
    }
  }

  /** A crash: the connection closes for real; the server rolls back its open transaction. Resolves once it has closed. */
  close(): Promise<void> {
    if (!this.#open) return Promise.resolve();
    this.#open = false;
    this.#inTransaction = false;
    return this.client.end().catch(() => undefined);
  }

  /** BEGIN and the run's write lock if it is free; else nothing begun, and busy (the lock is never waited for). */
  async #tryBegin(): Promise<void> {
    const [, lock] = (await this.client.query('BEGIN ISOLATION LEVEL READ COMMITTED; SELECT pg_try_advisory_xact_lock(hashtext(current_schema())) AS ok')) as unknown as [pg.QueryResult, pg.QueryResult<{ ok: boolean }>];
    if (lock.rows[0]?.ok !== true) {
      await this.client.query('ROLLBACK');
      throw busyError();
    }
    this.#inTransaction = true;
  }

  async #do(op: Op): Promise<unknown> {
    if (op.op === 'abandon') {
      if (!this.#open || !this.#inTransaction) return undefined;
      this.#count.changes += 1; // what it undoes may have changed a snapshot read inside it
      this.#inTransaction = false;
      await this.client.query('ROLLBACK');
      return undefined;
    }
    if (op.op === 'hook') return op.fn();
    if (!this.#open) throw new TypeError(CLOSED_CONNECTION);
    switch (op.op) {
      case 'begin':
        if (this.#neverWait) return this.#tryBegin();
        await this.client.query('BEGIN ISOLATION LEVEL READ COMMITTED; SELECT pg_advisory_xact_lock(hashtext(current_schema()))');
        this.#inTransaction = true;
        return undefined;
      case 'commit':
        this.#inTransaction = false;
        await this.client.query('COMMIT');
        if (this.#shared) this.#count.changes += 1; // the others' snapshots see it now
        return undefined;
      case 'rows':
        return (await this.client.query({ name: op.st.name, text: op.st.postgres, values: op.params as unknown[], rowMode: 'array' })).rows;
      case 'get':
      case 'all':
      case 'run':
      case 'insert': {
        const result = await this.client.query({ name: op.st.name, text: op.st.postgres, values: op.params as unknown[] });
        if (op.op === 'get') return result.rows[0];
        if (op.op === 'all') return result.rows;
        this.#count.changes += 1;
        if (op.op === 'run') return result.rowCount ?? 0;
        return Number(Object.values(result.rows[0] as Record<string, unknown>)[0]); // insert: the key it RETURNING'd
      }
    }
  }
}
