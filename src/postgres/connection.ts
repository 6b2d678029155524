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
 * - bigint columns (the virtual clock's ms, the rows' numbers, a SUM) are read as JavaScript numbers: every
 *   value faultlab writes is far below 2^53.
 */
import pg from 'pg';
import { CLOSED_CONNECTION, type Op, type Sql, type SqlConnection } from '../core/sql.js';

const INT8 = 20;

/** `pg`'s type parsers, bigint as a number. */
export const NUMBER_TYPES = {
  getTypeParser: ((oid: number, format?: string) => (oid === INT8 ? Number : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser,
};

export class PgSql implements SqlConnection {
  readonly dialect = 'postgres';
  readonly client: pg.Client;
  #open = true;
  #inTransaction = false;
  #changes = 0;

  constructor(client: pg.Client) {
    this.client = client;
  }

  /** A new connection to `url` whose unqualified names resolve in `schema` (the run's own). */
  static async connect(url: string, schema: string): Promise<PgSql> {
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}`, types: NUMBER_TYPES });
    // A connection the server ends (its database dropped WITH (FORCE), the server stopped) fails its next statement;
    // the event the client emits as well is not an uncaught error.
    client.on('error', () => undefined);
    await client.connect();
    return new PgSql(client);
  }

  get open(): boolean {
    return this.#open;
  }

  get inTransaction(): boolean {
    return this.#inTransaction;
  }

  changes(): number {
    return this.#changes;
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

  async #do(op: Op): Promise<unknown> {
    if (op.op === 'abandon') {
      if (!this.#open || !this.#inTransaction) return undefined;
      this.#changes += 1; // what it undoes may have changed a snapshot read inside it
      this.#inTransaction = false;
      await this.client.query('ROLLBACK');
      return undefined;
    }
    if (op.op === 'hook') return op.fn();
    if (!this.#open) throw new TypeError(CLOSED_CONNECTION);
    switch (op.op) {
      case 'begin':
        await this.client.query('BEGIN ISOLATION LEVEL READ COMMITTED; SELECT pg_advisory_xact_lock(hashtext(current_schema()))');
        this.#inTransaction = true;
        return undefined;
      case 'commit':
        this.#inTransaction = false;
        await this.client.query('COMMIT');
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
        this.#changes += 1;
        if (op.op === 'run') return result.rowCount ?? 0;
        return Number(Object.values(result.rows[0] as Record<string, unknown>)[0]); // insert: the key it RETURNING'd
      }
    }
  }
}
