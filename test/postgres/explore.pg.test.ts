/**
 * The explorer on PostgreSQL: every schedule of depth 1 over the 17 (each with one added fault at every point),
 * run from its start in a schema of its own, gives the very tallies it gives on SQLite — scenario by scenario,
 * outcome by outcome, fault by fault.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explore } from '../../src/explore/explore.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { closeIdle } from '../../src/postgres/storage.js';
import { noPostgres, testDatabase } from './database.js';

let url: string;
beforeAll(async () => {
  if (noPostgres === null) url = await testDatabase();
});
afterAll(() => closeIdle());

describe.skipIf(noPostgres !== null)(`explore on PostgreSQL${noPostgres !== null ? ` (skipped: ${noPostgres})` : ''}`, () => {
  // ~850 runs from their start, 15–45 s here (a crash really reconnects): its own time limit.
  it('gives the same tallies as on SQLite at depth 1 over the 17', async () => {
    const scenarios = loadScenarios();
    const onSqlite = await explore(scenarios, { depth: 1, workers: 1 });
    const onPostgres = await explore(scenarios, { depth: 1, workers: 1, postgres: url });
    expect(onPostgres.postgres).toBe(url);
    expect(onPostgres.scenarios.map((one) => [one.scenario.id, one.tally.toData()])).toEqual(onSqlite.scenarios.map((one) => [one.scenario.id, one.tally.toData()]));
    expect(onPostgres.total.toData()).toEqual(onSqlite.total.toData());
  }, 600_000);
});
