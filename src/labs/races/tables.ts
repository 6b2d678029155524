/**
 * The races' tables, in a schema of their own on the server (named like a run's, so the sweep of a killed
 * faultlab's schemas takes it too): the stock, the reservations (the effect), the ledger (a request's key and
 * its receipt) and a queue's tasks. Before every interleaving they are emptied and the starting rows written
 * again, by a connection no session drives.
 */
import pg from 'pg';
import { NUMBER_TYPES } from '../../postgres/connection.js';
import { runSchemaName } from '../../postgres/storage.js';
import type { Setup } from './protocols.js';

const TABLES = `
CREATE TABLE items (item_id text PRIMARY KEY, available int NOT NULL);
CREATE TABLE reservations (reservation_id text PRIMARY KEY, key text NOT NULL, item_id text NOT NULL, qty int NOT NULL);
CREATE TABLE ledger (key text PRIMARY KEY, reservation_id text NOT NULL);
CREATE TABLE tasks (task_id int PRIMARY KEY, state text NOT NULL, claimed_by text);`;

/** What the tables hold at the end of an interleaving, read by the connection no session drives. */
export interface Final {
  stock: number;
  /** The reservations made, by id, in order. */
  reservations: string[];
  /** The ledger's rows: key → receipt. */
  ledger: Record<string, string>;
  /** The tasks: id → who claimed it (null: still ready). */
  tasks: Record<string, string | null>;
}

export interface Tables {
  readonly url: string;
  readonly schema: string;
  /** A new connection whose unqualified names are the races' tables. */
  connect(): Promise<pg.Client>;
  /** Empty every table and write the starting rows. */
  refill(setup: Setup): Promise<void>;
  read(): Promise<Final>;
  /** Close the connection and drop the schema. */
  drop(): Promise<void>;
}

export async function makeTables(url: string): Promise<Tables> {
  const schema = runSchemaName();
  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}`, types: NUMBER_TYPES });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  const admin = await connect();
  await admin.query(`CREATE SCHEMA ${pg.escapeIdentifier(schema)}`);
  await admin.query(TABLES);
  return {
    url,
    schema,
    connect,
    async refill(setup) {
      await admin.query('TRUNCATE items, reservations, ledger, tasks');
      await admin.query(`INSERT INTO items VALUES ('camera', $1)`, [setup.stock]);
      if (setup.tasks > 0) await admin.query(`INSERT INTO tasks (task_id, state) SELECT n, 'ready' FROM generate_series(1, $1::int) AS n`, [setup.tasks]);
    },
    async read() {
      const stock = Number((await admin.query(`SELECT available FROM items WHERE item_id = 'camera'`)).rows[0]?.available ?? 0);
      const reservations = (await admin.query<{ reservation_id: string }>('SELECT reservation_id FROM reservations ORDER BY reservation_id')).rows.map((r) => r.reservation_id);
      const ledger = Object.fromEntries((await admin.query<{ key: string; reservation_id: string }>('SELECT key, reservation_id FROM ledger ORDER BY key')).rows.map((r) => [r.key, r.reservation_id]));
      const tasks = Object.fromEntries((await admin.query<{ task_id: number; claimed_by: string | null }>('SELECT task_id, claimed_by FROM tasks ORDER BY task_id')).rows.map((r) => [String(r.task_id), r.claimed_by]));
      return { stock, reservations, ledger, tasks };
    },
    async drop() {
      await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`).catch(() => undefined);
      await admin.end().catch(() => undefined);
    },
  };
}
