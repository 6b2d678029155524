/**
 * Every check can fail: each mutant is caught on a fixed scenario and by an explored schedule, each time by
 * a named invariant; the explored catch is shrunk to a minimal scenario that `faultlab run` really fails on;
 * and every invariant of docs/spec.md §7 catches at least one mutant.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INVARIANTS } from '../../src/check/invariants.js';
import { describeFaults } from '../../src/faults/types.js';
import { huntMutant, type MutantHunt } from '../../src/explore/mutants.js';
import { brokeOn, writeReplay } from '../../src/explore/replayFile.js';
import { message } from '../../src/core/message.js';
import { word } from '../../src/render/words/index.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { cli } from '../support.js';
import { seventeen, tempDir } from './helpers.js';

/** mutant → [fixed scenario, its invariant, explored scenario, minimal fault list, its invariant] */
const EXPECTED: Record<string, [string, string, string, string, string]> = {
  new_key_per_attempt: ['lost_reply', 'inv3', 'happy_path', 'transient at reserve attempt 1 call 4', 'inv3'],
  version_before_ledger: ['lost_reply', 'inv5', 'happy_path', 'duplicate_delivery at reserve attempt 1 call 4', 'inv5'],
  receipt_outside_transaction: ['crash_before_commit', 'inv1', 'happy_path', 'crash_before_commit at reserve attempt 1 call 4', 'inv1'],
  contract_error_retried: ['payload_conflict', 'inv5', 'happy_path', 'concurrent_reserve at reserve attempt 1 call 4', 'inv5'],
  no_budget_check: ['budget_exhausted', 'inv2', 'budget_exhausted', 'transient at read_doc attempt 1', 'inv2'],
  // Invariant 3 after every step: the first transient failure of any action drops it pending.
  pending_dropped_after_transient: ['transient_read', 'inv3', 'happy_path', 'transient at search_docs attempt 1 call 1', 'inv3'],
  // Invariant 2 after every step: starting over with a new key is trying the intent again past max_retries.
  exhausted_reissued_with_new_key: ['lost_reply_no_retry', 'inv2', 'lost_reply_no_retry', 'lost_reply at reserve attempt 1', 'inv2'],
  observation_saved_before_commit: ['happy_path', 'inv3', 'happy_path', 'transient at reserve attempt 1 call 4', 'inv6'],
  finish_not_saved: ['happy_path', 'inv4', 'transient_read_exhausted', 'no fault', 'inv4'],
  waits_for_lost_reply: ['crash_after_commit', 'inv7', 'happy_path', 'crash_before_commit at search_docs attempt 1 call 1', 'inv7'],
};

const short = (invariant: string | undefined) => invariant?.split('_')[0];
const hunts = new Map<string, MutantHunt>();
const hunt = async (name: string) => {
  if (!hunts.has(name)) hunts.set(name, await huntMutant(MUTANTS.find((m) => m.name === name)!, seventeen()));
  return hunts.get(name)!;
};

describe('the mutants', () => {
  it('number at least eight, each with a name and a description', async () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(8);
    expect(Object.keys(EXPECTED).sort()).toEqual(MUTANTS.map((m) => m.name).sort());
  });

  for (const mutant of MUTANTS) {
    it(`catches ${mutant.name} on a fixed scenario and on an explored schedule, naming the invariant`, async () => {
      const [fixedScenario, fixedInvariant, exploredScenario, minimal, exploredInvariant] = EXPECTED[mutant.name]!;
      const { fixed, explored } = await hunt(mutant.name);
      expect([fixed?.scenario.id, short(fixed?.invariant)]).toEqual([fixedScenario, fixedInvariant]);
      expect([explored?.scenario.id, short(explored?.invariant)]).toEqual([exploredScenario, exploredInvariant]);
      expect(explored!.found.length).toBe(1);
      expect(word('en', describeFaults(explored!.minimal))).toBe(minimal);
    }, 30_000);
  }

  it('has every invariant of docs/spec.md §7 catch at least one mutant', async () => {
    const hunted = await Promise.all(MUTANTS.map((m) => hunt(m.name)));
    const caught = new Set(hunted.flatMap((h) => [h.fixed?.invariant, h.explored?.invariant]));
    for (const { id } of INVARIANTS) expect(caught, id).toContain(id);
  }, 60_000);
});

describe('a mutant caught by exploration is replayed by faultlab run', () => {
  const dir = tempDir();
  for (const mutant of MUTANTS) {
    it(`fails the minimal scenario of ${mutant.name} with the same invariant, through the CLI`, async () => {
      const { explored } = await hunt(mutant.name);
      const who = message('cli.explore.whoMutant', { name: mutant.name });
      const file = writeReplay('en', { scenario: explored!.scenario, faults: explored!.minimal, invariant: explored!.invariant, broke: brokeOn(explored!.run, explored!.invariant, explored!.message), who, prefix: mutant.name }, dir);
      expect(readFileSync(file, 'utf8').split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=.*scenario\.schema\.json$/);
      const out = await cli(['run', file, '--runner', `mutant:${mutant.name}`, '--json']);
      expect(out.code, out.stderr).toBe(1);
      const doc = JSON.parse(out.stdout) as { scenarios: Array<{ violations: Array<{ check: string }> }> };
      const failed = doc.scenarios[0]!.violations.map((v) => v.check);
      expect(failed).toContain(explored!.invariant);
      expect(failed).not.toContain('faults_fired');
      // ... and the reference runner passes the same file: the schedule is fair, the mutant is wrong.
      expect((await cli(['run', file, '--json'])).code).toBe(0);
    }, 30_000);
  }
});
