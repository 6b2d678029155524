/**
 * A run's two databases on PostgreSQL (src/core/storage.ts `RunDatabases`): a schema of its own on the server
 * — the tool's tables and the runner's event log side by side there, each reached through a connection of its
 * own, as SQLite's two files are — and the crash model on it:
 * - `crash()` really closes both connections: the server rolls back the transaction either had open and drops
 *   its locks; nothing uncommitted survives, exactly as when a SQLite connection closes;
 * - `reopen()` waits until both are closed, then connects anew: the new connections read only what was committed;
 * - `dispose()` closes them and drops the schema.
 * Many runs share one server, each in its own schema (`faultlab_run_<host>_<pid>_<n>`: whose it is, and unique).
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import type { RunDatabases } from '../core/storage.js';
import { PgSql } from './connection.js';

const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 6);
let runs = 0;

/** A new run's schema name: this host's, this process's, never used before by it. */
export function runSchemaName(): string {
  runs += 1;
  return `faultlab_run_${HOST}_${process.pid}_${runs}`;
}

export class PgStorage implements RunDatabases {
  readonly kind = 'postgres';
  readonly dir = null;
  readonly keptIn = null;
  readonly url: string;
  readonly schema: string;
  #tool: PgSql;
  #events: PgSql;
  #closing: Array<Promise<void>> = [];

  private constructor(url: string, schema: string, tool: PgSql, events: PgSql) {
    this.url = url;
    this.schema = schema;
    this.#tool = tool;
    this.#events = events;
  }

  /** A new schema on the server at `url`, `setUp` run on the first connection (the tables and their starting rows). */
  static async open(url: string, setUp: (tool: pg.Client) => Promise<void>): Promise<PgStorage> {
    const schema = runSchemaName();
    const tool = await PgSql.connect(url, schema);
    let events: PgSql | null = null;
    try {
      await tool.client.query(`CREATE SCHEMA ${pg.escapeIdentifier(schema)}`);
      await setUp(tool.client);
      events = await PgSql.connect(url, schema);
      return new PgStorage(url, schema, tool, events);
    } catch (error) {
      await tool.close();
      await events?.close();
      await dropSchema(url, schema);
      throw error;
    }
  }

  get toolSql(): PgSql {
    return this.#tool;
  }

  get eventsSql(): PgSql {
    return this.#events;
  }

  crash(): void {
    this.#closing.push(this.#tool.close(), this.#events.close());
  }

  async reopen(): Promise<void> {
    this.crash();
    await Promise.all(this.#closing.splice(0));
    this.#tool = await PgSql.connect(this.url, this.schema);
    this.#events = await PgSql.connect(this.url, this.schema);
  }

  async dispose(): Promise<void> {
    this.crash();
    await Promise.all(this.#closing.splice(0));
    await dropSchema(this.url, this.schema);
  }
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
  } finally {
    await admin.end();
  }
}
