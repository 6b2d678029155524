/**
 * A run's two databases on PostgreSQL (src/core/storage.ts `RunDatabases`): a schema of its own on the server
 * — the tool's tables and the runner's event log side by side there, each reached through a connection of its
 * own, as SQLite's two files are — and the crash model on it:
 * - `crash()` really closes both connections: the server rolls back the transaction either had open and drops
 *   its locks; nothing uncommitted survives, exactly as when a SQLite connection closes;
 * - `reopen()` waits until both are closed, then connects anew: the new connections read only what was committed;
 * - `dispose()` ends the run. A run whose connections are alive and idle at its end lends them, with its schema, to
 *   the next run on the same server (`open` empties the schema's tables and writes the next run's starting rows):
 *   a new connection costs a server process (~20 ms here) and a schema its catalogue writes (~35 ms to make and
 *   drop), several times a whole run of the 17's. Any other is closed and its schema dropped; `closeIdle()`
 *   closes and drops what is lent, when the caller is done with runs (a command's end, a test file's).
 * Many runs share one server, each in its own schema (`faultlab_run_<host>_<pid>_<thread>_<n>`: whose it is, and unique).
 * A faultlab killed outright leaves its schemas on a server of the user's: the first run of a process on a server
 * drops this host's whose process is gone (an embedded server goes with its folder: nothing to sweep there).
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { threadId } from 'node:worker_threads';
import pg from 'pg';
import type { RunDatabases } from '../core/storage.js';
import { isAlive } from '../core/tempDir.js';
import { PgSql } from './connection.js';

const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 6);
let runs = 0;

/** A new run's schema name: this host's, this process's and thread's (explore runs schedules in several), never used before by it. */
export function runSchemaName(): string {
  runs += 1;
  return `faultlab_run_${HOST}_${process.pid}_${threadId}_${runs}`;
}

/** How a run's schema is made the first time, and made ready for the next run after that. */
export interface SchemaSetUp {
  /** The tables and the starting rows, in a new schema. */
  create(tool: pg.Client): Promise<void>;
  /** The same starting rows in a schema a run left: everything it wrote deleted first. */
  refill(tool: pg.Client): Promise<void>;
}

interface Lent {
  schema: string;
  tool: PgSql;
  events: PgSql;
}

/** Schemas and their connections, alive and idle, by server URL: the next run's. */
const idle = new Map<string, Lent[]>();

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

  /** A schema on the server at `url` holding the run's starting rows: one a run left idle, else a new one. */
  static async open(url: string, setUp: SchemaSetUp): Promise<PgStorage> {
    if (!swept.has(url)) {
      swept.add(url);
      await sweepStaleSchemas(url);
    }
    const lent = idle.get(url)?.pop();
    if (lent !== undefined) {
      try {
        await setUp.refill(lent.tool.client);
        return new PgStorage(url, lent.schema, lent.tool, lent.events);
      } catch (error) {
        await Promise.all([lent.tool.close(), lent.events.close()]);
        await dropSchema(url, lent.schema);
        throw error;
      }
    }
    const schema = runSchemaName();
    const tool = await PgSql.connect(url, schema);
    let events: PgSql | null = null;
    try {
      await tool.client.query(`CREATE SCHEMA ${pg.escapeIdentifier(schema)}`);
      await setUp.create(tool.client);
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
    // Both at once: each is a new server process (~20 ms here), and neither needs the other. If one fails, the
    // other is closed: nothing is left open past the run.
    const [tool, events] = await Promise.allSettled([PgSql.connect(this.url, this.schema), PgSql.connect(this.url, this.schema)]);
    if (tool.status === 'rejected' || events.status === 'rejected') {
      for (const one of [tool, events]) if (one.status === 'fulfilled') await one.value.close();
      throw tool.status === 'rejected' ? tool.reason : (events as PromiseRejectedResult).reason;
    }
    [this.#tool, this.#events] = [tool.value, events.value];
  }

  async dispose(): Promise<void> {
    const [tool, events] = [this.#tool, this.#events];
    if (tool.open && events.open && !tool.inTransaction && !events.inTransaction) {
      idle.set(this.url, [...(idle.get(this.url) ?? []), { schema: this.schema, tool, events }]);
      return;
    }
    this.crash();
    await Promise.all(this.#closing.splice(0));
    await dropSchema(this.url, this.schema);
  }
}

/** The servers this process has swept already. */
const swept = new Set<string>();

const SCHEMA = new RegExp(`^faultlab_run_${HOST}_(\\d+)_`);

/** Drop the run schemas this host's killed processes left on the server at `url`; returns their names. */
export async function sweepStaleSchemas(url: string): Promise<string[]> {
  const admin = new pg.Client({ connectionString: url });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    const { rows } = await admin.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1) ORDER BY nspname`, [`faultlab_run_${HOST}_`]);
    const stale = rows.map((row) => row.nspname).filter((name) => {
      const pid = Number(SCHEMA.exec(name)?.[1]);
      return Number.isInteger(pid) && pid !== process.pid && !isAlive(pid);
    });
    for (const name of stale) await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(name)} CASCADE`);
    return stale;
  } finally {
    await admin.end();
  }
}

/** What else lends schemas between runs (many workers' shared schemas, src/postgres/shared.ts): closed with these. */
const closers: Array<() => Promise<void>> = [];

/** Have `close` run by every `closeIdle()`. */
export function onCloseIdle(close: () => Promise<void>): void {
  closers.push(close);
}

/** Close every idle connection and drop its schema: the runs are over. */
export async function closeIdle(): Promise<void> {
  for (const close of closers) await close();
  const all = [...idle.entries()].flatMap(([url, lent]) => lent.map((one) => ({ url, ...one })));
  idle.clear();
  for (const one of all) {
    await Promise.all([one.tool.close(), one.events.close()]);
    await dropSchema(one.url, one.schema);
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
