/**
 * `explore --mutants --db …`: the mutants' hunt on PostgreSQL, every schedule from its start in a schema of its own,
 * catches each mutant where it does on SQLite — the same fixed scenario, the same explored schedule shrunk to the
 * same minimal faults, after the same number of runs. (With no scenario named the hunt takes in the queue's mutants,
 * on the many-worker scenarios, and is refused there: test/cli/db.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { huntMutant, type MutantHunt } from '../../src/explore/mutants.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { closeIdle } from '../../src/postgres/storage.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { noPostgres, testDatabase } from './database.js';

let url: string;
beforeAll(async () => {
  if (noPostgres === null) url = await testDatabase();
});
afterAll(() => closeIdle());

const caught = (hunt: MutantHunt) => ({
  fixed: hunt.fixed && [hunt.fixed.scenario.id, hunt.fixed.invariant],
  explored: hunt.explored && [hunt.explored.scenario.id, hunt.explored.invariant, hunt.explored.found, hunt.explored.minimal],
  runs: hunt.runs,
});

describe.skipIf(noPostgres !== null)(`the mutants' hunt on PostgreSQL${noPostgres !== null ? ` (skipped: ${noPostgres})` : ''}`, () => {
  // Two mutants over one scenario: ~100 runs from their start (a crash really reconnects), its own time limit.
  it.each(['new_key_per_attempt', 'waits_for_lost_reply'])('%s: caught as on SQLite', async (name) => {
    const mutant = MUTANTS.find((one) => one.name === name)!;
    const over = loadScenarios(['lost_reply']);
    const onSqlite = await huntMutant(mutant, over, { storage: 'memory' });
    const onPostgres = await huntMutant(mutant, over, { postgres: url });
    expect(onPostgres.explored ?? onPostgres.fixed).not.toBeNull();
    expect(caught(onPostgres)).toEqual(caught(onSqlite));
  }, 180_000);
});
