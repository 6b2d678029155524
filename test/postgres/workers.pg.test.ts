/**
 * Many workers on PostgreSQL (issue 23, items 1 and 3 for the queue): the task queue with its leases and fences in a
 * schema the run's connections share, one connection per worker's life, the run's write lock tried and never waited
 * for. The many-worker scenarios tell the same story as on SQLite — the same trace line for line, the same figures —
 * the explorer finds the same tallies, the queue's mutants are caught by the same scenarios, and a crash really drops
 * the worker's connection: the server rolls back what it had open, and the next life reads only what was committed.
 */
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import { explore } from '../../src/explore/explore.js';
import { queueCatches } from '../../src/explore/mutants.js';
import { QUEUE_MUTANTS } from '../../src/mutants/catalogue.js';
import { closeIdle } from '../../src/postgres/storage.js';
import { QueueStore, type Turns } from '../../src/queue/QueueStore.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { openPostgresWorkers } from '../../src/sim/workers/postgresDatabase.js';
import { cli, judged } from '../support.js';
import { noPostgres, testDatabase } from './database.js';
import { asAdmin, runSchemas } from './testDatabases.js';
import { aside, expectSameRun, text } from './sameRun.js';

const WORKERS = loadScenarios([join(SCENARIOS_DIR, 'workers')]);
/** What runs on PostgreSQL: every many-worker scenario but the one that teaches SQLite's own locking. */
const ON_POSTGRES = WORKERS.filter((s) => !s.tags.includes('sqlite-only'));
const byId = (id: string) => WORKERS.find((s) => s.id === id)!;
let url: string;

beforeAll(async () => {
  if (noPostgres === null) url = await testDatabase();
});
afterAll(() => closeIdle());

const onServer = <T>(work: (admin: pg.Client) => Promise<T>): Promise<T> => asAdmin(url, work);

describe.skipIf(noPostgres !== null)(`many workers on PostgreSQL${noPostgres !== null ? ` (skipped: ${noPostgres})` : ''}`, () => {
  it('runs every many-worker scenario but deferred_upgrade_busy', () => {
    expect(WORKERS.length - ON_POSTGRES.length).toBe(1);
    expect(WORKERS.find((s) => !ON_POSTGRES.includes(s))?.id).toBe('deferred_upgrade_busy');
  });

  it.each(ON_POSTGRES.map((s) => s.id))('%s: the same figures and the same trace as on SQLite', async (id) => {
    const scenario = byId(id);
    const onSqlite = await judged(scenario, { seed: 42 });
    const onPostgres = await judged(scenario, { seed: 42, postgres: url });
    expectSameRun(onSqlite, onPostgres);
    expect(onPostgres.passed).toBe(true);
    expect(text(onPostgres)).toMatch(/ · on PostgreSQL ·?\n/);
  }, 30_000);

  it('catches the queue’s mutants with the same scenarios and the same invariants as on SQLite', async () => {
    for (const mutant of QUEUE_MUTANTS.filter((m) => (m.queue as { sqliteOnly?: boolean } | undefined)?.sqliteOnly !== true)) {
      const shown = (catches: Awaited<ReturnType<typeof queueCatches>>) => catches.map((c) => [c.scenario.id, c.queue, c.chapter, c.message]);
      const onSqlite = await queueCatches(mutant, ON_POSTGRES, { seed: 42 });
      const onPostgres = await queueCatches(mutant, ON_POSTGRES, { seed: 42, postgres: url });
      expect(onSqlite.map((c) => c.scenario.id)).toContain(mutant.caughtBy.scenario);
      expect(shown(onPostgres)).toEqual(shown(onSqlite));
    }
  }, 120_000);

  // A subset, to stay within a minute here: double_claim_race with one pre-emption (97 schedules: claims meeting the
  // lock) and crash_after_commit_other_worker with none (74: every added fault, crashes included).
  it('explores to the same tallies as on SQLite (double_claim_race with 1 pre-emption, crash_after_commit_other_worker with none)', async () => {
    for (const [id, preemptions] of [['double_claim_race', 1], ['crash_after_commit_other_worker', 0]] as const) {
      const onSqlite = await explore([byId(id)], { depth: 1, preemptions, workers: 1 });
      const onPostgres = await explore([byId(id)], { depth: 1, preemptions, workers: 1, postgres: url });
      expect(onPostgres.scenarios.map((one) => [one.scenario.id, one.tally.toData()])).toEqual(onSqlite.scenarios.map((one) => [one.scenario.id, one.tally.toData()]));
      expect(onPostgres.total.toData()).toEqual(onSqlite.total.toData());
    }
  }, 180_000);

  it('a crash drops that worker’s connection: the server rolls back its open claim and releases the lock; the next reads only what was committed', async () => {
    const clock = new VirtualClock();
    const { database, setup } = await openPostgresWorkers(byId('double_claim_race'), url);
    try {
      const observer = new QueueStore({ db: setup, clock, leaseMs: 500 });
      const doomed = await database.connect();
      const pid = (doomed as unknown as { client: { processID: number } }).client.processID;
      const crashAtCommit: Turns = {
        at: async (point) => {
          if (point !== 'claim:commit') return;
          database.crash(doomed); // the process dies with its grant written, not committed
          throw new Error('crashed');
        },
        busy: async () => {
          throw new Error('nobody else holds the lock');
        },
      };
      await expect(new QueueStore({ db: doomed, clock, leaseMs: 500, turns: crashAtCommit }).claim('w1')).rejects.toThrow('crashed');
      await database.settled();
      expect(await onServer(async (admin) => (await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', [pid])).rows[0].n)).toBe(0);
      expect((await observer.readRows())[0]).toMatchObject({ state: 'queued', owner: null, token: 0 });
      // The lock went with the connection: the next life claims at once (no busy), the grant token 1 again.
      const next = new QueueStore({ db: await database.connect(), clock, leaseMs: 500, turns: { at: async () => {}, busy: crashAtCommit.busy } });
      expect(await next.claim('w1')).toMatchObject({ token: 1, reclaim: false });
      expect((await observer.readRows())[0]).toMatchObject({ state: 'running', owner: 'w1', token: 1 });
    } finally {
      await database.dispose();
    }
  }, 30_000);

  it('a claim that meets another’s open claim is refused at once (busy) and never waits on the lock', async () => {
    const clock = new VirtualClock();
    const { database, setup } = await openPostgresWorkers(byId('double_claim_race'), url);
    try {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let reached!: () => void;
      const atWrite = new Promise<void>((resolve) => (reached = resolve));
      const first = new QueueStore({
        db: await database.connect(),
        clock,
        leaseMs: 500,
        turns: { at: async (point) => (point === 'claim:write' ? (reached(), gate) : undefined), busy: async () => {} },
      }).claim('w1');
      await atWrite; // w1 holds the lock, inside its claim
      const busy: string[] = [];
      const second = new QueueStore({
        db: await database.connect(),
        clock,
        leaseMs: 500,
        turns: {
          at: async () => {},
          busy: async (point) => {
            busy.push(point);
            release();
            await first; // w1 commits; then w2 tries again
          },
        },
      }).claim('w2');
      expect(await first).toMatchObject({ owner: 'w1', token: 1 });
      expect(await second).toBeNull();
      expect(busy).toEqual(['claim:read']);
      expect((await new QueueStore({ db: setup, clock, leaseMs: 500 }).readRows())[0]).toMatchObject({ state: 'running', owner: 'w1', token: 1 });
    } finally {
      await database.dispose();
    }
  }, 30_000);

  it('faultlab run --db over scenarios/workers: the same lines as on SQLite, deferred_upgrade_busy left out and said why; named, it is refused in English and Chinese; nothing left on the server', async () => {
    const onSqlite = await cli(['run', '--no-color', 'scenarios/workers']);
    const onPostgres = await cli(['run', '--no-color', 'scenarios/workers', '--db', url]);
    expect(onPostgres.code).toBe(0);
    expect(onPostgres.stderr).toContain('deferred_upgrade_busy skipped: it runs on SQLite only (it teaches SQLite\'s own locking');
    // The runs, each without its header's facts; deferred_upgrade_busy's only on SQLite.
    const runs = (out: string) =>
      out
        .split(/\n(?=━━ )/)
        .filter((one) => one.startsWith('━━ '))
        .map((one) => aside(one.split('\n   # scenario')[0]!).replace(/^━━ \d+\/\d+ /, ''));
    const sqliteRuns = runs(onSqlite.stdout).filter((one) => !one.startsWith('deferred_upgrade_busy'));
    expect(runs(onPostgres.stdout)).toEqual(sqliteRuns);
    expect(sqliteRuns).toHaveLength(ON_POSTGRES.length);
    expect(onPostgres.stdout).toContain(`${ON_POSTGRES.length} passed, 0 failed (seed 42, reference runner)`);
    const en = await cli(['run', 'scenarios/workers/deferred_upgrade_busy.yaml', '--db', url]);
    expect(en.code).not.toBe(0);
    expect(en.stderr).toContain('deferred_upgrade_busy runs on SQLite only (it teaches SQLite\'s own locking');
    const zh = await cli(['run', 'scenarios/workers/deferred_upgrade_busy.yaml', '--db', url, '--lang', 'zh']);
    expect(zh.stderr).toContain('deferred_upgrade_busy 只能在 SQLite 上运行（它讲的是 SQLite 自己的加锁方式');
    const mutant = await cli(['run', 'double_claim_race', '--runner', 'mutant:deferred_upgrade', '--db', url]);
    expect(mutant.code).not.toBe(0);
    expect(mutant.stderr).toContain('mutant:deferred_upgrade runs on SQLite only');
    expect(await runSchemas(url)).toEqual([]);
  }, 120_000);
});
