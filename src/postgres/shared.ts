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
 * - `dispose()` ends the run. A run whose connections are all alive and idle at its end lends them, with its schema,
 *   to the next many-worker run on the same server (its tables emptied and its starting rows written again): a new
 *   connection costs a server process (~20 ms here) and a schema its catalogue writes, several times a whole run.
 *   Any other is closed and its schema dropped; `closeIdle()` (src/postgres/storage.ts) closes and drops what is lent.
 *   A schema a killed process left is dropped by the next run's sweep (src/postgres/storage.ts).
 */
import pg from 'pg';
import { PgSql } from './connection.js';
import { onCloseIdle, runSchemaName, sweepStaleSchemas } from './storage.js';

const swept = new Set<string>();

/** How a run's schema is made the first time, and made ready for the next run after that. */
export interface SharedSetUp {
  /** The tables and the starting rows, in a new schema. */
  create(connection: PgSql): Promise<void>;
  /** The same starting rows in a schema a run left: everything it wrote deleted first. */
  refill(connection: PgSql): Promise<void>;
}

interface Lent {
  schema: string;
  shared: { changes: number };
  connections: PgSql[];
}

/** Schemas and their connections, alive and idle, by server URL: the next many-worker run's. */
const idle = new Map<string, Lent[]>();

onCloseIdle(async () => {
  const all = [...idle.entries()].flatMap(([url, lent]) => lent.map((one) => ({ url, ...one })));
  idle.clear();
  for (const one of all) {
    await Promise.all(one.connections.map((connection) => connection.close()));
    await dropSchema(one.url, one.schema);
  }
});

export class PgSharedDatabase {
  readonly url: string;
  readonly schema: string;
  readonly #shared: { changes: number };
  readonly #open = new Set<PgSql>();
  /** Connections lent by the last run on this schema, alive and idle: handed out before any new one is made. */
  readonly #spare: PgSql[];
  readonly #closing: Array<Promise<void>> = [];

  private constructor(url: string, schema: string, lent: Lent | null = null) {
    this.url = url;
    this.schema = schema;
    this.#shared = lent?.shared ?? { changes: 0 };
    this.#spare = lent?.connections ?? [];
  }

  /**
   * A schema on the server at `url` holding the run's starting rows — one a run left idle, else a new one made by
   * `setUp.create` — and the first connection there, handed back with it (the harness's own).
   */
  static async open(url: string, setUp: SharedSetUp): Promise<{ database: PgSharedDatabase; setup: PgSql }> {
    if (!swept.has(url)) {
      swept.add(url);
      await sweepStaleSchemas(url);
    }
    const lent = idle.get(url)?.pop();
    if (lent !== undefined) {
      const database = new PgSharedDatabase(url, lent.schema, lent);
      try {
        const setup = await database.connect();
        await setUp.refill(setup);
        return { database, setup };
      } catch (error) {
        await database.#drop();
        throw error;
      }
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
      await setUp.create(setup);
      return { database: shared, setup };
    } catch (error) {
      await shared.#drop();
      throw error;
    }
  }

  /** A new connection of its own (a process starting, or starting again after a crash). */
  async connect(): Promise<PgSql> {
    const connection = this.#spare.pop() ?? (await PgSql.connect(this.url, this.schema, { neverWait: true, shared: this.#shared }));
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

  /** End of run: its connections and schema lent to the next run if all are alive and idle; else closed, and the schema dropped. */
  async dispose(): Promise<void> {
    await this.settled();
    const connections = [...this.#open, ...this.#spare];
    if (connections.every((connection) => connection.open && !connection.inTransaction)) {
      this.#open.clear();
      this.#spare.length = 0;
      idle.set(this.url, [...(idle.get(this.url) ?? []), { schema: this.schema, shared: this.#shared, connections }]);
      return;
    }
    await this.#drop();
  }

  /** Every connection closed, the schema dropped. */
  async #drop(): Promise<void> {
    await Promise.all([...this.#open, ...this.#spare].map((connection) => connection.close()));
    this.#open.clear();
    this.#spare.length = 0;
    await this.settled();
    await dropSchema(this.url, this.schema);
  }
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
  } finally {
    await admin.end();
  }
}
