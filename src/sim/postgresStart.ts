/**
 * Where a run's databases come from on PostgreSQL (start.ts is SQLite's): loaded only for a run given a server,
 * so that a run on SQLite never loads the PostgreSQL client (measured: ~40 ms of CPU on every `faultlab run`).
 */
import { PgSql } from '../postgres/connection.js';
import type pg from 'pg';
import { PgStorage } from '../postgres/storage.js';
import { startingRows, TOOL_SCHEMA_PG } from '../inventory/schema.js';
import { EVENT_SCHEMA_PG } from '../runner/EventStore.js';
import { PILLARS_SCHEMA_PG, PILLARS_TABLES } from '../durability/store.js';
import type { Scenario } from '../scenario/types.js';
/**
 * A run's databases on the PostgreSQL server at `url`: a schema of its own (src/postgres/storage.ts), its tables
 * made and its starting rows written in one transaction — the same rows, in the same order, as on SQLite.
 */
export function openPostgresDatabases(scenario: Scenario, url: string): Promise<PgStorage> {
  const fill = async (client: pg.Client, before: string) => {
    await client.query(`BEGIN; ${before}`);
    await new PgSql(client).run(startingRows(scenario.inventory));
    await client.query('COMMIT');
  };
  return PgStorage.open(url, {
    create: (client) => fill(client, `${TOOL_SCHEMA_PG} ${EVENT_SCHEMA_PG} ${PILLARS_SCHEMA_PG}`),
    refill: (client) => fill(client, [...RUN_TABLES, ...PILLARS_TABLES].map((table) => `DELETE FROM ${table};`).join(' ')),
  });
}

/** Every table of a run's schema (the tool's, then the log; the pillars' stores' are PILLARS_TABLES). */
const RUN_TABLES = ['items', 'ledger', 'docs', 'history', 'tombstones', 'finished_tasks', 'outbox', 'charges', 'events'] as const;
