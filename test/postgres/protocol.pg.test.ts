/**
 * One protocol, two databases: the 17 run on PostgreSQL — each in a schema of its own on the test file's
 * database, the same statements written for its dialect, a crash really closing the runner's and the tool's
 * connections — and tell the same story as on SQLite: the same figures, the same checks, the same trace line
 * for line, and the same bytes for the same seed.
 */
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../src/scenario/load.js';
import { renderRun } from '../../src/render/renderText.js';
import { PLAIN } from '../../src/render/style.js';
import type { RunResult } from '../../src/check/RunResult.js';
import { judged } from '../support.js';
import { noPostgres, testDatabase } from './database.js';

const scenarios = loadScenarios();
let url: string;

beforeAll(async () => {
  if (noPostgres === null) url = await testDatabase();
});

const text = (run: RunResult) => renderRun(run, PLAIN, { lang: 'en' });
const figures = (run: RunResult) => ({
  status: run.state?.status,
  calls: run.state?.calls,
  crashes: run.crashes,
  db: run.db,
  log: run.log,
  checks: run.checks.map((check) => [check.id, check.passed, check.expected, check.actual]),
});

describe.skipIf(noPostgres !== null)(`the 17 on PostgreSQL${noPostgres !== null ? ` (skipped: ${noPostgres})` : ''}`, () => {
  it.each(scenarios.map((s) => s.id))('%s: the same figures and the same trace as on SQLite', async (id) => {
    const scenario = scenarios.find((s) => s.id === id)!;
    const onSqlite = await judged(scenario, { seed: 42, storage: 'file' });
    const onPostgres = await judged(scenario, { seed: 42, postgres: url });
    expect(onPostgres.storage).toBe('postgres');
    expect(onPostgres.passed).toBe(true);
    expect(figures(onPostgres)).toEqual(figures(onSqlite));
    expect(onPostgres.trace).toEqual(onSqlite.trace);
    expect(text(onPostgres).split('\n')).toEqual(text(onSqlite).split('\n'));
  }, 30_000);

  it('the same seed gives byte-identical traces on both, another seed another trace on both', async () => {
    const scenario = scenarios.find((s) => s.id === 'lost_reply')!;
    for (const seed of [7, 8]) {
      const first = text(await judged(scenario, { seed, postgres: url }));
      expect(text(await judged(scenario, { seed, postgres: url }))).toBe(first);
      expect(text(await judged(scenario, { seed, storage: 'memory' }))).toBe(first);
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
