/** Shrinking keeps the invariant broken with the fewest faults, and pins each point so the replay reads as a lesson. */
import { describe, expect, it } from 'vitest';
import { breaks, pin, shrink, withFaults } from '../../src/explore/shrink.js';
import { runWith } from '../../src/explore/runSchedule.js';
import type { FaultSpec } from '../../src/faults/types.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { byId, mutantTarget, reference } from './helpers.js';

const newKey = mutantTarget(MUTANTS.find((m) => m.name === 'new_key_per_attempt')!);

describe('shrink', () => {
  it('drops every fault the violation does not need, and keeps the one that moved the call numbers', async () => {
    // transient at call 1 retries search_docs, so reserve's first attempt is call 5 instead of 4; the lost
    // reply there makes the runner retry reserve — with a new key. The duplicate read_doc changes nothing.
    const schedule: FaultSpec[] = [
      { kind: 'transient', at: { call: 1 } },
      { kind: 'duplicate_delivery', at: { call: 3 } },
      { kind: 'lost_reply', at: { call: 5 } },
    ];
    const scenario = byId('happy_path');
    expect(breaks(await runWith(scenario, schedule, newKey), 'inv3_same_key_same_args')).toBe(true);
    const shrunk = await shrink(scenario, schedule, 'inv3_same_key_same_args', newKey);
    expect(shrunk.faults).toEqual([
      { kind: 'transient', at: { tool: 'search_docs', attempt: 1, call: 1 } },
      { kind: 'lost_reply', at: { tool: 'reserve', attempt: 1, call: 5 } },
    ]);
    expect(breaks(shrunk.run, 'inv3_same_key_same_args')).toBe(true);
    // Minimal: neither fault alone breaks it (the lost reply alone strikes at a call the run never makes).
    for (const one of schedule) expect(breaks(await runWith(withFaults(scenario, [one]), [], newKey), 'inv3_same_key_same_args')).toBe(false);
  });

  it('is minimal: no schedule with fewer faults breaks the invariant', async () => {
    // receipt_outside_transaction is caught (inv1) only when the process dies between its two transactions.
    const store = mutantTarget(MUTANTS.find((m) => m.name === 'receipt_outside_transaction')!);
    const scenario = byId('crash_before_commit'); // its own fault: crash_before_commit at reserve attempt 1
    const shrunk = await shrink(scenario, [...scenario.faults, { kind: 'transient', at: { call: 2 } }], 'inv1_one_effect_per_intent', store);
    expect(shrunk.faults).toEqual(scenario.faults);
    expect(breaks(await runWith(withFaults(scenario, []), [], store), 'inv1_one_effect_per_intent')).toBe(false);
  });

  it('keeps the scenario own faults when the violation needs them', async () => {
    const noBudget = mutantTarget(MUTANTS.find((m) => m.name === 'no_budget_check')!);
    const scenario = byId('budget_exhausted'); // max_calls 4, transient at read_doc attempt 1
    const shrunk = await shrink(scenario, [...scenario.faults, { kind: 'concurrent_reserve', at: { call: 1 } }], 'inv2_call_budget', noBudget);
    expect(shrunk.faults).toEqual([{ kind: 'transient', at: { tool: 'read_doc', attempt: 1 } }]);
  });

  it('pins a bare call or event number to the tool, attempt and label the run shows there', async () => {
    const scenario = byId('lost_reply');
    const added: FaultSpec[] = [{ kind: 'duplicate_delivery', at: { call: 3 } }, { kind: 'crash_after_event', at: { seq: 11 } }];
    const run = await runWith(scenario, added, reference);
    expect(pin([...scenario.faults, ...added], run)).toEqual([
      { kind: 'lost_reply', at: { tool: 'reserve', attempt: 1 } },
      { kind: 'duplicate_delivery', at: { tool: 'get_stock', attempt: 1, call: 3 } },
      { kind: 'crash_after_event', at: { label: 'prepared', tool: 'reserve', seq: 11 } },
    ]);
  });
});
