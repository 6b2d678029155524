/**
 * Many workers' database on PostgreSQL (databases.ts is SQLite's): loaded only for a run given a server. The tool's
 * tables and the queue's in one schema, with the same starting rows in the same order as on SQLite.
 */
import type { PgSql } from '../../postgres/connection.js';
import { PgSharedDatabase } from '../../postgres/shared.js';
import { startingRows, TOOL_SCHEMA_PG } from '../../inventory/schema.js';
import { QUEUE_SCHEMA_PG, queueRows } from '../../queue/QueueStore.js';
import type { Scenario } from '../../scenario/types.js';
import type { SqlConnection } from '../../core/sql.js';
import type { WorkersDatabase } from './workersDatabase.js';

export async function openPostgresWorkers(scenario: Scenario, url: string): Promise<{ database: WorkersDatabase; setup: SqlConnection }> {
  const fill = async (connection: PgSql, before: string) => {
    await connection.client.query(`BEGIN; ${before}`);
    await connection.run(startingRows(scenario.inventory));
    await connection.run(queueRows([scenario.task.id], 'postgres'));
    await connection.client.query('COMMIT');
  };
  const { database, setup } = await PgSharedDatabase.open(url, {
    create: (connection) => fill(connection, `${TOOL_SCHEMA_PG} ${QUEUE_SCHEMA_PG}`),
    refill: (connection) => fill(connection, EMPTY_EVERY_TABLE),
  });
  return {
    database: {
      kind: 'postgres',
      connect: () => database.connect(),
      crash: (connection) => database.crash(connection as PgSql),
      settled: () => database.settled(),
      dispose: () => database.dispose(),
    },
    setup,
  };
}

/** Every table of the run's schema emptied, whichever tables it has (the tool's, the queue's). */
const EMPTY_EVERY_TABLE = `DO $$DECLARE t text; BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() LOOP EXECUTE format('DELETE FROM %I', t); END LOOP;
END$$;`;
