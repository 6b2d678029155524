/**
 * Where a torture's workers meet (docs/spec.md §19): SQLite's file (driver.ts `sqlitePlace`) or, with `--db
 * postgres…`, a schema of the run's own on a PostgreSQL server — this module, loaded only then (it loads `pg`).
 *
 * On PostgreSQL:
 * - the schema is made with the simulator's tables (the tool's and the queue's, src/postgres/shared.ts's) and the
 *   checks' indexes; every worker process connects to it by URL, as a worker on another machine would, and waits on
 *   the schema's advisory lock where a SQLite worker backs off on BUSY (src/postgres/connection.ts);
 * - the producer's batch, the sweep and each check after a kill run in one transaction under that lock — what
 *   SQLite's write lock gave the driver there: while it holds it, no worker moves a task between two queries;
 * - nothing is archived: a SQLite file read whole after every kill grows with every task, and the archive keeps it
 *   small; the checks read the schema by its indexes, and the run ends by dropping it. No `integrity_check`
 *   either: that is SQLite's, of a file several processes write; on PostgreSQL the server alone writes its pages,
 *   and a killed client's transaction is rolled back by it (that is what the other checks see);
 * - the schema is named as a run's (`faultlab_run_<host>_<pid>_…`, src/postgres/storage.ts) and dropped at the
 *   end; one a killed faultlab left is dropped by the next run's sweep on the same server;
 * - `--join SCHEMA`: another run's schema, made by a run elsewhere — nothing made, nothing dropped; its queries
 *   meeting the schema gone mean that run has ended (JoinedRunEnded).
 */
import pg from 'pg';
import { abandon, begin, commit, type Sql, type SqlConnection } from '../../core/sql.js';
import { PgSql } from '../../postgres/connection.js';
import { runSchemaName, sweepStaleSchemas } from '../../postgres/storage.js';
import { allAccountedFor, fileFigures, taskChecks, type FileCheck, type FileFigures } from '../../torture/fileChecks.js';
import { leftOps, TORTURE_SCHEMA_PG } from '../../torture/intents.js';
import { SCHEMA_GONE } from './ipc.js';
import { JoinedRunEnded } from './processes.js';

/** The run's database as the driver meets it, on either kind. */
export interface TortureDatabase {
  /** What a worker is told to open: the file (SQLite), or the run's folder (PostgreSQL: the schema is `schema`). */
  workerDb: string;
  schema: string | null;
  /** The producer's and the sweeper's connection. */
  keeper: SqlConnection;
  /** The checks after a kill, made while no worker can write (SQLite: then the finished tasks archived). */
  checkLive(): Promise<FileCheck[]>;
  /** Tasks not finished. */
  left(): Promise<number>;
  /** The last checks (every worker gone), and what the database holds. `final`: the run was drained. */
  last(final: boolean, enqueued: number): Promise<{ checks: FileCheck[]; tasks: FileFigures }>;
  /** PostgreSQL: end a worker's server backend (`pg_terminate_backend`). */
  terminate?: (backend: number) => Promise<void>;
  /** The process is stopping now and cannot wait: close what can be closed at once. */
  abandon(): void;
  /** The end: connections closed (on PostgreSQL the schema dropped). */
  close(): Promise<void>;
}

/** Checks in one transaction under the schema's write lock: nothing changes between two of their queries. */
function* underTheLock<T>(checks: Sql<T>): Sql<T> {
  yield* begin();
  try {
    const found = yield* checks;
    yield* commit();
    return found;
  } catch (error) {
    yield* abandon();
    throw error;
  }
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A joining run's query met its schema gone: the run it joined has ended (and dropped it). */
async function orEnded<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (SCHEMA_GONE.has((error as { code?: string }).code ?? '')) throw new JoinedRunEnded('the run joined has ended');
    throw error;
  }
}

/**
 * The driver's database: a new schema on the server at `url`, its tables made, and the driver's two connections
 * there (one per role, as on SQLite) — or, with `join`, another run's schema on that server (`--join`: this run's
 * workers share that run's queue, as workers on another machine; that run produces, sweeps and drops it, this one
 * only kills its own workers and checks). Returns null when `join` names no torture's schema there.
 */
export async function postgresPlace(url: string, join: string | null = null): Promise<TortureDatabase | null> {
  if (join !== null) {
    const found = await admin(url, (client) => client.query<{ tasks: string | null }>('SELECT to_regclass($1) AS tasks', [`${pg.escapeIdentifier(join)}.tasks`]).catch(() => ({ rows: [{ tasks: null }] })));
    if (found.rows[0]?.tasks === null) return null;
  } else await sweepStaleSchemas(url);
  const schema = join ?? runSchemaName();
  const name = pg.escapeIdentifier(schema);
  if (join === null) await admin(url, (client) => client.query(`CREATE SCHEMA ${name}`));
  const opened: PgSql[] = [];
  const drop = async () => {
    await Promise.all(opened.map((connection) => connection.close()));
    if (join === null) await admin(url, (client) => client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`));
  };
  try {
    const keeper = await PgSql.connect(url, schema);
    opened.push(keeper);
    if (join === null) await keeper.client.query(`BEGIN; ${TORTURE_SCHEMA_PG} COMMIT;`);
    const checker = await PgSql.connect(url, schema);
    opened.push(checker);
    return {
      workerDb: '',
      schema,
      keeper,
      checkLive: () => orEnded(checker.run(underTheLock(taskChecks('main', false)))),
      left: () => orEnded(checker.run(leftOps())),
      last: async (final, enqueued) => {
        // A joining run neither drained the queue nor made its tasks: what it checks last is what it checked after a kill.
        const checks = await orEnded(
          checker.run(
            underTheLock(
              (function* () {
                if (join !== null) return yield* taskChecks('main', false);
                return [...(yield* taskChecks('main', final)), yield* allAccountedFor(['main'], enqueued)];
              })(),
            ),
          ),
        );
        return { checks, tasks: await orEnded(checker.run(fileFigures('main'))) };
      },
      terminate: async (backend) => {
        await checker.client.query('SELECT pg_terminate_backend($1)', [backend]);
      },
      abandon: () => {
        for (const connection of opened) void connection.close();
      },
      close: drop,
    };
  } catch (error) {
    await drop();
    throw error;
  }
}
