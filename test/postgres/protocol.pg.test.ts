/**
 * One protocol, two databases: the 17 (and the limits' scenarios) run on PostgreSQL — each in a schema of its own
 * on the test file's database, the same statements written for its dialect, a crash really closing the runner's
 * and the tool's connections — and tell the same story as on SQLite: the same figures, the same checks, the same
 * trace line for line (the header naming the database aside), and the same bytes for the same seed.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeIdle, sweepStaleSchemas } from '../../src/postgres/storage.js';
import { loadAll, loadScenarios } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';
import { judged } from '../support.js';
import { VirtualClock } from '../../src/core/clock.js';
import { SeededRng } from '../../src/core/rng.js';
import { InventoryTool } from '../../src/inventory/InventoryTool.js';
import { readSnapshotOps } from '../../src/inventory/snapshot.js';
import { openPostgresDatabases } from '../../src/sim/postgresStart.js';
import { LIMIT_MUTANTS, MUTANTS } from '../../src/mutants/catalogue.js';
import { noPostgres, testDatabase } from './database.js';
import { aside, expectSameRun, figures, text } from './sameRun.js';

const scenarios = loadScenarios();
/** Past the chapter (docs/spec.md §13–§14): the purge, the tombstones, the outbox and the remote service. */
const limits = loadAll(['scenarios/limits'], { cwd: process.cwd() }).flatMap((one) => (one.type === 'runner' ? [one.scenario] : []));
let url: string;

beforeAll(async () => {
  if (noPostgres === null) url = await testDatabase();
});
afterAll(() => closeIdle());

describe.skipIf(noPostgres !== null)(`the 17 on PostgreSQL${noPostgres !== null ? ` (skipped: ${noPostgres})` : ''}`, () => {
  const same = async (scenario: Scenario) => {
    const onSqlite = await judged(scenario, { seed: 42, storage: 'file' });
    const onPostgres = await judged(scenario, { seed: 42, postgres: url });
    expectSameRun(onSqlite, onPostgres);
    expect(onPostgres.passed).toBe(true);
    expect(text(onPostgres)).toMatch(/ · on PostgreSQL\n/);
    expect(text(onSqlite)).not.toContain('PostgreSQL');
  };

  it.each(scenarios.map((s) => s.id))('%s: the same figures and the same trace as on SQLite', (id) => same(scenarios.find((s) => s.id === id)!), 30_000);

  it.each(limits.map((s) => s.id))('past the chapter, %s: the same figures and the same trace as on SQLite', (id) => same(limits.find((s) => s.id === id)!), 30_000);

  it('the same seed gives byte-identical traces on both, another seed another trace on both', async () => {
    const scenario = scenarios.find((s) => s.id === 'lost_reply')!;
    for (const seed of [7, 8]) {
      const first = text(await judged(scenario, { seed, postgres: url }));
      expect(text(await judged(scenario, { seed, postgres: url }))).toBe(first);
      expect(aside(text(await judged(scenario, { seed, storage: 'memory' })))).toBe(aside(first));
    }
  }, 30_000);

  it('runs leave nothing on the server once their caller is done: every schema dropped, no connection left open', async () => {
    await judged(scenarios.find((s) => s.id === 'crash_before_commit')!, { postgres: url });
    await closeIdle();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const schemas = await admin.query(`SELECT nspname FROM pg_namespace WHERE starts_with(nspname, 'faultlab_run_')`);
      expect(schemas.rows).toEqual([]);
      const others = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
      expect(others.rows[0].n).toBe(0);
    } finally {
      await admin.end();
    }
  }, 30_000);
});

describe.skipIf(noPostgres !== null)('the broken stores on PostgreSQL', () => {
  // Every mutant of the catalogue was compared on the 17 and the limits' scenarios by hand (faultlab run --all
  // --runner mutant:NAME, then with --db postgres): the same traces. Held here: each broken store on the scenario
  // that catches it — the ones that commit inside the tool's protocol (receipt, outbox) among them.
  const stores = [...MUTANTS, ...LIMIT_MUTANTS].filter((mutant) => mutant.tool.name !== 'InventoryTool');
  it.each(stores.map((mutant) => mutant.name))('%s: caught on PostgreSQL as on SQLite, by the same trace', async (name) => {
    const mutant = stores.find((one) => one.name === name)!;
    const scenario = [...scenarios, ...limits].find((s) => s.id === mutant.caughtBy.scenario)!;
    const options = { seed: 42, runner: mutant.runner, tool: mutant.tool };
    const onSqlite = await judged(scenario, { ...options, storage: 'file' });
    const onPostgres = await judged(scenario, { ...options, postgres: url });
    expect(onPostgres.checks.find((check) => check.id === mutant.caughtBy.invariant)?.passed).toBe(false);
    expect(figures(onPostgres)).toEqual(figures(onSqlite));
    expect(onPostgres.trace).toEqual(onSqlite.trace);
  }, 30_000);
});

describe.skipIf(noPostgres !== null)('the crash model on PostgreSQL', () => {
  it('a crash inside the tool\'s transaction really closes its connection: the server rolls it back and frees its lock, and new connections read only what was committed', async () => {
    const storage = await openPostgresDatabases(scenarios.find((s) => s.id === 'happy_path')!, url);
    const observer = new pg.Client({ connectionString: url });
    await observer.connect();
    try {
      const tool = new InventoryTool({ db: storage.toolSql, rng: new SeededRng('tool'), clock: new VirtualClock() });
      const pid = (await storage.toolSql.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const seen: string[] = [];
      const crash = new Error('crash');
      const reserve = tool.ops({ name: 'reserve', args: { item: 'camera', qty: 1, expected_version: 0, key: 't:reserve:1' } }, {
        taskId: 't',
        midTransaction: async () => {
          // Inside the transaction: the effect is there for the tool's own connection, invisible to any other.
          const inside = await storage.toolSql.run(readSnapshotOps());
          const outside = await observer.query(`SELECT available FROM ${pg.escapeIdentifier(storage.schema)}.items WHERE item_id = 'camera'`);
          const state = await observer.query('SELECT state FROM pg_stat_activity WHERE pid = $1', [pid]);
          seen.push(`inside ${inside.items[0]!.available}, outside ${outside.rows[0].available}, ${state.rows[0].state}`);
          storage.crash();
          throw crash;
        },
      });
      await expect(storage.toolSql.run(reserve)).rejects.toBe(crash);
      expect(seen).toEqual(['inside 2, outside 3, idle in transaction']);
      expect(storage.toolSql.open).toBe(false);
      await storage.reopen();
      // The old backend is gone (its connection closed for real), and so is everything it had not committed.
      expect((await observer.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', [pid])).rows[0].n).toBe(0);
      const after = await storage.toolSql.run(readSnapshotOps());
      expect([after.items.find((row) => row.item_id === 'camera')!.available, after.ledger]).toEqual([3, []]);
      // Its advisory lock went with it: a new writer begins at once and commits.
      const again = new InventoryTool({ db: storage.toolSql, rng: new SeededRng('tool'), clock: new VirtualClock() });
      const receipt = await storage.toolSql.run(again.ops({ name: 'reserve', args: { item: 'camera', qty: 1, expected_version: 0, key: 't:reserve:1' } }, { taskId: 't' }));
      expect(receipt).toMatchObject({ item: 'camera', qty: 1, available_after: 2, version_after: 1 });
    } finally {
      await observer.end();
      await storage.dispose();
    }
  }, 30_000);

  it('a statement after the crash fails as on a closed SQLite connection, and the log of a new runner holds only the committed events', async () => {
    const run = await judged(scenarios.find((s) => s.id === 'crash_after_commit')!, { postgres: url });
    const recovered = run.trace.filter((event) => event.type === 'recovered');
    expect(recovered).toHaveLength(1);
    expect(run.log.map((event) => event.seq)).toEqual(run.log.map((_, i) => i + 1)); // numbered as SQLite numbers them, no gap
    const storage = await openPostgresDatabases(scenarios.find((s) => s.id === 'happy_path')!, url);
    try {
      storage.crash();
      await expect(Promise.resolve().then(() => storage.eventsSql.run(readSnapshotOps()))).rejects.toThrow('The database connection is not open');
    } finally {
      await storage.dispose();
    }
  }, 30_000);
});

describe.skipIf(noPostgres !== null)('what a killed faultlab leaves on a server of yours', () => {
  it('is swept: this host\'s run schemas whose process is gone are dropped, a live process\'s kept', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const storage = await openPostgresDatabases(scenarios.find((s) => s.id === 'happy_path')!, url);
      const host = storage.schema.split('_')[2]!;
      // A pid no process has (above the kernel's pid_max), as a SIGKILLed run leaves its schema.
      const dead = `faultlab_run_${host}_99999999_0_1`;
      await admin.query(`CREATE SCHEMA ${dead}`);
      expect(await sweepStaleSchemas(url)).toEqual([dead]);
      const left = await admin.query(`SELECT nspname FROM pg_namespace WHERE starts_with(nspname, 'faultlab_run_') ORDER BY nspname`);
      expect(left.rows.map((row) => row.nspname)).toEqual([storage.schema]);
      await storage.dispose();
      await closeIdle();
    } finally {
      await admin.end();
    }
  }, 30_000);
});
