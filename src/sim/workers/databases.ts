/**
 * The one database many workers share, on either kind: a SQLite file in WAL mode (src/core/storage.ts
 * `SharedDatabase`) or a schema of its own on a PostgreSQL server (src/postgres/shared.ts, loaded only then). Each
 * process of the run connects on its own, and a crash closes only the crashed process's connection.
 */
import { SharedDatabase } from '../../core/storage.js';
import { atOnce, SqliteSql, type SqlConnection } from '../../core/sql.js';
import { createToolDatabase } from '../../inventory/schema.js';
import { createQueue } from '../../queue/QueueStore.js';
import type { Scenario } from '../../scenario/types.js';
import type { WorkersDatabase } from './workersDatabase.js';


/** The run's database, its tables made and its starting rows written (the task queued), and the harness's own connection. */
export async function openWorkersDatabase(scenario: Scenario, options: { keepDir?: string; postgres?: string }): Promise<{ database: WorkersDatabase; setup: SqlConnection }> {
  if (options.postgres !== undefined) return (await import('./postgresDatabase.js')).openPostgresWorkers(scenario, options.postgres);
  const shared = new SharedDatabase(options.keepDir !== undefined ? { keepDir: options.keepDir } : {});
  const database: WorkersDatabase = {
    kind: 'file',
    connect: async () => SqliteSql.of(shared.connect()),
    crash: (connection) => shared.crash(atOnce(connection).db),
    settled: async () => {},
    dispose: async () => shared.dispose(),
  };
  try {
    const setup = shared.connect();
    createToolDatabase(setup, scenario.inventory);
    createQueue(setup, [scenario.task.id]);
    return { database, setup: SqliteSql.of(setup) };
  } catch (error) {
    shared.dispose();
    throw error;
  }
}
