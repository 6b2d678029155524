/**
 * The pillars on PostgreSQL: every pillar scenario (scenarios/pillars, and the graded one with a breaker) runs with
 * its dead-letter queue and its breaker in the run's schema, and tells the same story as on SQLite — the same
 * figures and dead letters, the same trace line for line (the header naming the database aside), and explore the
 * same tallies. And the stores
 * themselves: the dead letter's number and name as SQLite's AUTOINCREMENT and printf give them, and the save's
 * hook inside the log's transaction, on either database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { SqliteSql, type SqlConnection } from '../../src/core/sql.js';
import type { PgSql } from '../../src/postgres/connection.js';
import { openDatabase } from '../../src/core/storage.js';
import { CircuitBreaker } from '../../src/durability/breaker/CircuitBreaker.js';
import { DeadLetterQueue } from '../../src/durability/dlq/DeadLetterQueue.js';
import { closeIdle } from '../../src/postgres/storage.js';
import { explore } from '../../src/explore/explore.js';
import { EventStore, EVENT_SCHEMA } from '../../src/runner/EventStore.js';
import { initialState } from '../../src/runner/state.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { openPostgresDatabases } from '../../src/sim/postgresStart.js';
import { cli, judged } from '../support.js';
import { noPostgres, testDatabase } from './database.js';
import { expectSameRun, text } from './sameRun.js';

const pillars = loadScenarios(['scenarios/pillars', 'scenarios/graded'], { cwd: process.cwd() }).filter((s) => s.durability !== undefined);
let url: string;

beforeAll(async () => {
  if (noPostgres === null) url = await testDatabase();
});
afterAll(() => closeIdle());

describe.skipIf(noPostgres !== null)(`the pillars on PostgreSQL${noPostgres !== null ? ` (skipped: ${noPostgres})` : ''}`, () => {
  it('knows the pillar scenarios', () => {
    expect(pillars.length).toBeGreaterThanOrEqual(7);
  });

  it.each(pillars.map((s) => s.id))('%s: the same figures, dead letters and trace as on SQLite', async (id) => {
    const scenario = pillars.find((s) => s.id === id)!;
    const onSqlite = await judged(scenario, { seed: 42, storage: 'file' });
    const onPostgres = await judged(scenario, { seed: 42, postgres: url });
    expectSameRun(onSqlite, onPostgres);
    expect(text(onPostgres)).toMatch(/ · on PostgreSQL\n/);
  }, 30_000);

  // ~350 schedules from their start, ~10 s here: its own time limit.
  it('explore gives the same tallies as on SQLite at depth 1 over the pillar scenarios', async () => {
    const onSqlite = await explore(pillars, { depth: 1, workers: 1 });
    const onPostgres = await explore(pillars, { depth: 1, workers: 1, postgres: url });
    expect(onPostgres.scenarios.map((one) => [one.scenario.id, one.tally.toData()])).toEqual(onSqlite.scenarios.map((one) => [one.scenario.id, one.tally.toData()]));
    expect(onPostgres.total.toData()).toEqual(onSqlite.total.toData());
  }, 300_000);

  it("faultlab grade --db URL on the graded pillar scenario: the same grade as on SQLite", async () => {
    const args = ['grade', 'test/fixtures/learners/Correct.ts', '--scenarios', 'breaker_refuses_attempt', '--no-explore', '--no-color'];
    const [onSqlite, onPostgres] = [await cli(args), await cli([...args, '--db', url])];
    expect([onSqlite.code, onPostgres.code, onPostgres.stderr]).toEqual([0, 0, '']);
    expect(onPostgres.stdout).toBe(onSqlite.stdout);
  }, 60_000);

  it('faultlab run --db URL, the demo: its next commands stay on PostgreSQL (the URL without its password)', async () => {
    const demo = await cli(['run', '--db', url, '--no-color']);
    expect([demo.code, demo.stderr]).toEqual([0, '']);
    expect(demo.stdout).toMatch(/npx faultlab run scenarios\/pillars --db '?postgres(ql)?:\/\/\S+\s+\(the pillars in the Runner\)/);
    expect(demo.stdout).toMatch(/npm run grade -- --db '?postgres(ql)?:\/\/\S+\s+\(the exercise\)/);
  }, 60_000);

  it('faultlab run --db URL scenarios/pillars: the same summary as on SQLite', async () => {
    const [onSqlite, onPostgres] = [await cli(['run', 'scenarios/pillars', '--quiet']), await cli(['run', 'scenarios/pillars', '--quiet', '--db', url])];
    expect([onPostgres.code, onPostgres.stderr]).toEqual([0, '']);
    expect(onPostgres.stdout).toBe(onSqlite.stdout);
  }, 60_000);
});

/** Both databases' runner connections, with the pillars' tables: SQLite's made by the stores, PostgreSQL's with the run's schema. */
async function bothLogs(): Promise<Array<{ name: string; events: SqlConnection; end(): Promise<void> }>> {
  const db = openDatabase();
  db.exec(EVENT_SCHEMA);
  const storage = await openPostgresDatabases(pillars[0]!, url);
  return [
    { name: 'sqlite', events: SqliteSql.of(db), end: async () => void db.close() },
    { name: 'postgres', events: storage.eventsSql, end: () => storage.dispose() as Promise<void> },
  ];
}

const dead = (n: number) => ({ agentId: `t${n}`, operationType: 'reserve', originalOperation: { n }, attempts: 1, lastError: { code: 'lost_reply', message: 'lost', definite: false } });

describe.skipIf(noPostgres !== null)('the pillars\' stores on PostgreSQL', () => {
  it('number and name a dead letter as SQLite does: never a number twice, a purged one included; more than six digits kept whole', async () => {
    const ids: Record<string, string[]> = {};
    for (const { name, events, end } of await bothLogs()) {
      try {
        const clock = new VirtualClock();
        const dlq = new DeadLetterQueue({ db: events, clock });
        const seen: string[] = (ids[name] = []);
        seen.push((await events.run(dlq.enqueueOps({ ...dead(1), ttlSeconds: 1 }))).dlqId);
        clock.advance(1_000);
        seen.push((await events.run(dlq.enqueueOps(dead(2)))).dlqId); // the first one purged first
        seen.push(...(await events.run(dlq.listOps())).map((r) => `${r.dlqId} ${r.status}`));
        const moved = await events.run(dlq.markReplayedOps(seen[1]!));
        seen.push(`${moved.dlqId} ${moved.status}`);
        // The counter far along: the name keeps every digit (printf's %06d pads, never cuts).
        if (events instanceof SqliteSql) events.db.exec(`UPDATE sqlite_sequence SET seq = 1234566 WHERE name = 'dlq_records'`);
        else await (events as PgSql).client.query('UPDATE dlq_sequence SET last = 1234566');
        seen.push((await events.run(dlq.enqueueOps(dead(3)))).dlqId);
      } finally {
        await end();
      }
    }
    expect(ids.sqlite).toEqual(['dlq-000001', 'dlq-000002', 'dlq-000002 pending', 'dlq-000002 replayed', 'dlq-1234567']);
    expect(ids.postgres).toEqual(ids.sqlite);
  }, 30_000);

  it('a dead letter written in the save\'s hook commits with the event, or not at all', async () => {
    for (const { name, events, end } of await bothLogs()) {
      try {
        const dlq = new DeadLetterQueue({ db: events, clock: new VirtualClock() });
        const enqueue = () => events.run(dlq.enqueueOps(dead(1)));
        const state = initialState(pillars[0]!.task);
        const kept = new EventStore(events, undefined, () => {
          const done = enqueue();
          return done instanceof Promise ? done.then(() => undefined) : undefined;
        });
        await kept.save(state, 'one');
        const failing = new EventStore(events, undefined, () => {
          const done = enqueue();
          if (done instanceof Promise) return done.then(() => Promise.reject(new Error('after the dead letter')));
          throw new Error('after the dead letter');
        });
        await expect(failing.save(state, 'two'), name).rejects.toThrow('after the dead letter');
        expect((await kept.all()).map((e) => e.label), name).toEqual(['one']);
        expect((await events.run(dlq.listOps())).map((r) => r.dlqId), name).toEqual(['dlq-000001']);
      } finally {
        await end();
      }
    }
  }, 30_000);

  it('keep a breaker\'s row as SQLite does: the same decisions, the same tickets', async () => {
    const decisions: Record<string, unknown[]> = {};
    for (const { name, events, end } of await bothLogs()) {
      try {
        const clock = new VirtualClock();
        const config = { dependency: 'inventory', failureRateThreshold: 0.5, minRequestCount: 2, windowSize: 4, resetTimeoutSeconds: 1, probeSuccessRequired: 1, probeTimeoutSeconds: 5 };
        const breaker = new CircuitBreaker({ db: events, clock, config });
        const seen: unknown[] = (decisions[name] = []);
        for (const ok of [false, false, true, true]) {
          const admission = await events.run(breaker.beforeCallOps());
          seen.push(admission.admitted ? admission.ticket : 'refused');
          if (admission.admitted) seen.push(await events.run(breaker.afterCallOps(ok, admission.ticket)));
          seen.push(await events.run(breaker.snapshotOps()));
          clock.advance(600);
        }
      } finally {
        await end();
      }
    }
    expect(decisions.postgres).toEqual(decisions.sqlite);
    expect(decisions.sqlite).toContain('refused');
  }, 30_000);
});
