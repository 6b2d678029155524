/**
 * Many workers on one PostgreSQL schema (src/sim/workers): SQLite's `SharedDatabase` (src/core/storage.ts) on a
 * server. The run's schema holds the tool's tables and the queue's; every process of the run — each worker's life,
 * the sweeper, the harness's observer — has a connection of its own there, all in this process:
 * - each connection never waits on the run's write lock (`neverWait`, src/postgres/connection.ts): the scheduler
 *   moves one actor at a time, and a lock refused is the busy SQLite's BEGIN IMMEDIATE gives;
 * - they share one count of changes (SQLite's `data_version` for the snapshots the wire reads);
 * - `crash(connection)` really closes that one connection: the server rolls back its open transaction and drops its
 *   locks, and the others go on; `settled()` resolves once every crashed connection is gone (its lock released), so
 *   that nobody else moves before;
 * - `dispose()` closes every connection and drops the schema. A schema a killed process left is dropped by the
 *   next run's sweep (src/postgres/storage.ts).
 */
import pg from 'pg';
import { PgSql } from './connection.js';
import { runSchemaName, sweepStaleSchemas } from './storage.js';

const swept = new Set<string>();

export class PgSharedDatabase {
  readonly url: string;
  readonly schema: string;
  readonly #shared = { changes: 0 };
  readonly #open = new Set<PgSql>();
  readonly #closing: Array<Promise<void>> = [];

  private constructor(url: string, schema: string) {
    this.url = url;
    this.schema = schema;
  }

  /**
   * A new schema on the server at `url`, made by `create` (its tables and starting rows) on the first connection
   * there, which is handed back with it (the harness's own).
   */
  static async open(url: string, create: (connection: PgSql) => Promise<void>): Promise<{ database: PgSharedDatabase; setup: PgSql }> {
    if (!swept.has(url)) {
      swept.add(url);
      await sweepStaleSchemas(url);
    }
    const shared = new PgSharedDatabase(url, runSchemaName());
    const admin = new pg.Client({ connectionString: url });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA ${pg.escapeIdentifier(shared.schema)}`);
    } finally {
      await admin.end();
    }
    try {
      const setup = await shared.connect();
      await create(setup);
      return { database: shared, setup };
    } catch (error) {
      await shared.dispose();
      throw error;
    }
  }

  /** A new connection of its own (a process starting, or starting again after a crash). */
  async connect(): Promise<PgSql> {
    const connection = await PgSql.connect(this.url, this.schema, { neverWait: true, shared: this.#shared });
    this.#open.add(connection);
    return connection;
  }

  /** One process's crash: its connection closes, and whatever it had not committed is rolled back by the server. */
  crash(connection: PgSql): void {
    this.#open.delete(connection);
    this.#closing.push(connection.close());
  }

  /** Every crashed connection closed: the server has rolled back what it had open and released its lock. */
  async settled(): Promise<void> {
    await Promise.all(this.#closing.splice(0));
  }

  /** End of run: every connection closed, the schema dropped. */
  async dispose(): Promise<void> {
    await Promise.all([...this.#open].map((connection) => connection.close()));
    this.#open.clear();
    await this.settled();
    const admin = new pg.Client({ connectionString: this.url });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(this.schema)} CASCADE`);
    } finally {
      await admin.end();
    }
  }
}
