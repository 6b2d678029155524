/**
 * One protocol, two databases: the 17 (and the limits' scenarios) run on PostgreSQL — each in a schema of its own
 * on the test file's database, the same statements written for its dialect, a crash really closing the runner's
 * and the tool's connections — and tell the same story as on SQLite: the same figures, the same checks, the same
 * trace line for line (the header naming the database aside), and the same bytes for the same seed.
 */
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAll, loadScenarios } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';
import { renderRun } from '../../src/render/renderText.js';
import { PLAIN } from '../../src/render/style.js';
import type { RunResult } from '../../src/check/RunResult.js';
import { judged } from '../support.js';
import { noPostgres, testDatabase } from './database.js';

const scenarios = loadScenarios();
/** Past the chapter (docs/spec.md §13–§14): the purge, the tombstones, the outbox and the remote service. */
const limits = loadAll(['scenarios/limits'], { cwd: process.cwd() }).flatMap((one) => (one.type === 'runner' ? [one.scenario] : []));
let url: string;

beforeAll(async () => {
  if (noPostgres === null) url = await testDatabase();
});

const text = (run: RunResult) => renderRun(run, PLAIN, { lang: 'en' });
/** The trace as printed, its header's facts aside (they name the database): the story above them, the faults and events below. */
const aside = (printed: string) => printed.slice(0, printed.indexOf('\n  seed ')) + printed.slice(printed.indexOf('\n  faults: '));
const figures = (run: RunResult) => ({
  status: run.state?.status,
  calls: run.state?.calls,
  crashes: run.crashes,
  db: run.db,
  log: run.log,
  checks: run.checks.map((check) => [check.id, check.passed, check.expected, check.actual]),
});

describe.skipIf(noPostgres !== null)(`the 17 on PostgreSQL${noPostgres !== null ? ` (skipped: ${noPostgres})` : ''}`, () => {
  const same = async (scenario: Scenario) => {
    const onSqlite = await judged(scenario, { seed: 42, storage: 'file' });
    const onPostgres = await judged(scenario, { seed: 42, postgres: url });
    expect(onPostgres.storage).toBe('postgres');
    expect(onPostgres.passed).toBe(true);
    expect(figures(onPostgres)).toEqual(figures(onSqlite));
    expect(onPostgres.trace).toEqual(onSqlite.trace);
    expect(aside(text(onPostgres)).split('\n')).toEqual(aside(text(onSqlite)).split('\n'));
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

  it('a crash before the commit leaves nothing on the server: every run dropped its schema, no connection left open', async () => {
    await judged(scenarios.find((s) => s.id === 'crash_before_commit')!, { postgres: url });
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
