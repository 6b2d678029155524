/**
 * The limits' scenarios explored like the 17 (docs/spec.md §13–§14): the ones that hold — a rule on, the query,
 * the outbox, the compensation — hold under every single added fault; the ones without their rule fail as
 * written, the named invariant; and every limits mutant is caught, by the invariant its catalogue entry names.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import { LIMIT_INVARIANTS } from '../../src/check/limits.js';
import { explore } from '../../src/explore/explore.js';
import { huntMutant } from '../../src/explore/mutants.js';
import { LIMIT_MUTANTS, MUTANTS, mutantNamed } from '../../src/mutants/catalogue.js';
import { ReferenceRunner } from '../../src/runner/ReferenceRunner.js';
import { loadScenario, loadScenarios } from '../../src/scenario/load.js';
import { cli, judged } from '../support.js';
import { tempDir } from './helpers.js';

const holding = () => loadScenarios([join(SCENARIOS_DIR, 'limits')]);
const unsafe = () => loadScenarios([join(SCENARIOS_DIR, 'limits', 'unsafe')]);

describe('exploring the scenarios that hold (scenarios/limits/)', () => {
  it('breaks no invariant under any single added fault, every scenario of them', async () => {
    const exploration = await explore(holding(), { target: { runner: ReferenceRunner }, workers: 1 });
    const found = exploration.scenarios.map(({ scenario, tally }) => [scenario.id, tally.total, tally.violations.size, tally.asWritten?.passed]);
    expect(found).toEqual([
      ['purge_late_retry_tombstone', 40, 0, true],
      ['purge_late_task_deadline', 52, 0, true],
      ['purge_receipts_outlive_requests', 52, 0, true],
      ['purge_task_replayed_finished_tasks', 61, 0, true],
      ['remote_compensation_charged', 44, 0, true],
      ['remote_compensation_declined', 59, 0, true],
      ['remote_outbox_crash_after_commit', 58, 0, true],
      ['remote_outbox_crash_mid_reserve', 52, 0, true],
      ['remote_query_crash_after_commit', 43, 0, true],
      ['remote_query_lost_reply', 44, 0, true],
    ]);
    // the relay's calls are points like the runner's: a crash after a relay's charge is among the schedules
    expect(exploration.total.fired.crash_after_commit).toBeGreaterThan(0);
  }, 120_000);
});

describe('exploring the scenarios without their rule (scenarios/limits/unsafe/)', () => {
  it('finds each one failing as written, the invariant the rule is there for', async () => {
    const exploration = await explore(unsafe(), { target: { runner: ReferenceRunner }, workers: 1 });
    const failed = exploration.scenarios.map(({ scenario, tally }) => [scenario.id, tally.asWritten?.failed]);
    expect(failed).toEqual([
      ['purge_before_deadline', ['inv14_one_effect_in_history']],
      ['purge_late_retry_stale', ['inv5_contract_error_changes_nothing']],
      ['purge_late_task_no_deadline', ['inv14_one_effect_in_history']],
      ['purge_task_replayed', ['inv14_one_effect_in_history']],
      ['remote_blind_retry_crash_after_commit', ['inv14_one_effect_in_history']],
      ['remote_blind_retry_lost_reply', ['inv14_one_effect_in_history']],
    ]);
  }, 120_000);
});

describe('the limits mutants', () => {
  it('are six, kept apart from the chapter\'s ten, and each found by name', () => {
    expect(LIMIT_MUTANTS.map((m) => m.name)).toEqual([
      'no_deadline_check',
      'retention_shorter_than_redelivery',
      'purged_keys_forgotten',
      'finished_tasks_ignored',
      'outbox_outside_transaction',
      'compensation_not_recorded',
    ]);
    expect(MUTANTS).toHaveLength(10);
    for (const m of LIMIT_MUTANTS) expect(mutantNamed(m.name)).toBe(m);
  });

  for (const mutant of LIMIT_MUTANTS) {
    it(`${mutant.name}: fails ${mutant.caughtBy.invariant} on ${mutant.caughtBy.scenario}, which the real tool passes`, async () => {
      const scenario = loadScenario(mutant.caughtBy.scenario);
      const broken = await judged(scenario, { runner: mutant.runner, tool: mutant.tool, storage: 'memory' });
      expect(broken.checks.find((c) => c.id === mutant.caughtBy.invariant)?.passed).toBe(false);
      expect((await judged(scenario, { storage: 'memory' })).passed).toBe(true);
    });
  }

  it('are each caught by exploring scenarios/limits, and every limits invariant catches one', async () => {
    const scenarios = holding();
    const hunts = await Promise.all(LIMIT_MUTANTS.map((mutant) => huntMutant(mutant, scenarios)));
    expect(hunts.map((h) => [h.mutant.name, h.fixed?.scenario.id, h.fixed?.invariant, h.explored !== null])).toEqual(
      LIMIT_MUTANTS.map((m) => [m.name, m.caughtBy.scenario, m.caughtBy.invariant, true]),
    );
    const caught = new Set(hunts.flatMap((h) => [h.fixed?.invariant, h.explored?.invariant]));
    for (const { id } of LIMIT_INVARIANTS) expect(caught, id).toContain(id);
  }, 240_000);
});

describe('faultlab explore --mutants', () => {
  it('hunts the limits mutants over scenarios past the chapter, and names every limits invariant it needs caught', async () => {
    const out = await cli(['explore', join(SCENARIOS_DIR, 'limits', 'remote_compensation_declined.yaml'), '--mutants', '--json', '--workers', '1', '--out', tempDir()]);
    const doc = JSON.parse(out.stdout) as { mutants: Array<{ name: string; caught: boolean; invariant: string | null }> };
    expect(doc.mutants.map((m) => m.name)).toEqual(LIMIT_MUTANTS.map((m) => m.name));
    // one scenario catches the one mutant whose rule it switches on; the others have nothing there to break
    expect(doc.mutants.filter((m) => m.caught).map((m) => [m.name, m.invariant])).toEqual([['compensation_not_recorded', 'inv1_one_effect_per_intent']]);
    expect(out.code).toBe(1);
  }, 120_000);
});
