/**
 * A torture worker: the entry point of one worker process, started (and SIGKILLed, SIGSTOPped, restarted) by the
 * driver (driver.ts, docs/spec.md §19). It is thin on purpose: it opens its own connection to the shared file (or,
 * with `--db postgres…`, to the run's schema on the server),
 * builds the one protocol (src/torture/ProcessLife.ts: ReferenceWorker, QueueStore, InventoryTool, ReferenceRunner
 * — or a mutant's parts) and loops claim → run → finish. What only a real process has lives here: the real clock
 * (leases are real milliseconds, the same clock in every process), real waits (a poll when the queue is empty, a
 * short back-off when SQLite answers BUSY), its command line, and the IPC channel to the driver.
 *
 * It never stops on its own: the driver kills it. When the driver is gone (the channel closes), it exits too.
 */
import { MAX_STEPS } from '../../core/defaults.js';
import { dynamicImport } from '../../core/dynamicImport.js';
import { SeededRng } from '../../core/rng.js';
import { openShared } from '../../core/storage.js';
import { saidOf } from '../../core/message.js';
import { partsOf } from '../../torture/parts.js';
import { ProcessLife, type LifeCounts } from '../../torture/ProcessLife.js';
import type { Db } from '../../core/storage.js';
import type { SqlConnection } from '../../core/sql.js';
import { CONNECTION_LOST_EXIT, RUN_ENDED_EXIT, SCHEMA_GONE, TORTURE_URL_VARIABLE, type WorkerConfig, type WorkerReport } from './ipc.js';

/** How long an idle worker waits before it claims again, in ms: a few polls per lease. */
const POLL_MS = 5;
/** The back-off after SQLITE_BUSY, in ms, drawn per wait: about what SQLite's own busy handler sleeps first (1, 2, 5 ms). */
const BUSY_WAIT_MS = { min: 1, max: 3 } as const; // (PostgreSQL: never — the connection waits on the lock)
/** Counts reach the driver after every cycle that changed them, and at least this often while a cycle waits. */
const REPORT_EVERY_MS = 50;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function send(report: WorkerReport, then?: () => void): void {
  if (process.connected) process.send!(report, undefined, {}, () => then?.());
  else then?.();
}

/**
 * The PostgreSQL client's module, loaded only for a worker handed a schema — and not bundled: the worker's bundle
 * is compiled on every restart (every kill), and `pg` would more than double it for the SQLite torture too
 * (136 KB against 328 KB, measured). It is the compiled module beside the bundle, or the source's through tsx.
 */
function postgresModule(): string {
  const here = import.meta.url;
  if (here.endsWith('.cjs')) return new URL('../src/postgres/connection.js', here).href; // the bundle, in dist/bundle/
  return new URL(`../../postgres/connection.${here.endsWith('.ts') ? 'ts' : 'js'}`, here).href; // dist/src/, or the source through tsx
}

/**
 * The process's connection: the shared file, or the run's schema on PostgreSQL — loaded only then. A server
 * connection that dies under the worker (`pg_terminate_backend`, the server restarting) ends the process: its
 * uncommitted work is rolled back by the server, as a SIGKILL's is, and the driver starts the next life.
 */
async function connect(config: WorkerConfig): Promise<{ db: Db | SqlConnection; backend?: number }> {
  if (config.schema === undefined) return { db: openShared(config.db) };
  const { PgSql } = await dynamicImport<typeof import('../../postgres/connection.js')>(postgresModule());
  const connection = await PgSql.connect(process.env[TORTURE_URL_VARIABLE] ?? '', config.schema);
  connection.client.on('end', () => process.exit(CONNECTION_LOST_EXIT));
  const { rows } = await connection.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return { db: connection, backend: rows[0]!.pid };
}

async function main(config: WorkerConfig): Promise<void> {
  const { db, backend } = await connect(config);
  const jitter = new SeededRng(`${config.seed}/${config.name}/${config.life}/busy`);
  const life = new ProcessLife({
    db,
    clock: {
      nowMs: () => Date.now(), // every process reads the same clock: a lease written by one is read by all
      advance: () => {
        throw new Error('real time moves by itself');
      },
    },
    rng: new SeededRng(`${config.seed}/${config.name}/${config.life}/tool`),
    name: config.name,
    leaseMs: config.leaseMs,
    parts: partsOf(config.runner),
    wait: () => sleep(jitter.int(BUSY_WAIT_MS.min, BUSY_WAIT_MS.max)),
    onTheWire: () => (config.toolMs > 0 ? sleep(config.toolMs) : Promise.resolve()),
    maxSteps: MAX_STEPS,
  });
  let sent = '';
  const report = () => {
    const now = JSON.stringify(life.counts);
    if (now === sent) return;
    sent = now;
    send({ type: 'counts', counts: JSON.parse(now) as LifeCounts });
  };
  setInterval(report, REPORT_EVERY_MS).unref();
  send(backend === undefined ? { type: 'ready' } : { type: 'ready', backend });
  for (;;) {
    const outcome = await life.worker.cycle();
    report();
    if (outcome === 'idle') await sleep(POLL_MS);
  }
}

// The driver is gone (it exited, or was killed): nobody will kill this process, so it ends itself.
process.on('disconnect', () => process.exit(0));
const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
main(config).catch((error: unknown) => {
  // The run this one joined has ended (its schema dropped): nothing is broken, the driver is told by the exit code.
  if (config.schema !== undefined && SCHEMA_GONE.has((error as { code?: string }).code ?? '')) process.exit(RUN_ENDED_EXIT);
  const e = error instanceof Error ? error : new Error(String(error));
  process.stderr.write(`${e.stack ?? e.message}\n`);
  send({ type: 'error', name: e.name, said: saidOf(e) ?? e.message }, () => process.exit(70));
});
