/**
 * A check that cannot fail is a defect: every invariant must catch at least one deliberately broken
 * runner or store, and the reference must hold them all.
 */
import { describe, expect, it } from 'vitest';
import { word } from '../../src/render/words/index.js';
import { INVARIANTS } from '../../src/check/invariants.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { FlawedRunner, type Flaws } from '../../src/mutants/FlawedRunner.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { judged } from '../support.js';

const scenarios = loadScenarios();
const byId = (id: string) => scenarios.find((s) => s.id === id)!;

describe('invariants', () => {
  it('hold for the reference runner on all 17 scenarios', async () => {
    for (const s of scenarios) {
      const broken = (await judged(s, { storage: 'memory' })).checks.filter((c) => c.kind === 'invariant' && !c.passed);
      expect(broken, s.id).toEqual([]);
    }
  });

  it('hold for the flawed runner with no flaw switched on (the mutants differ only by their flaw)', async () => {
    class NoFlaw extends FlawedRunner {
      protected readonly flaws = {};
    }
    for (const s of scenarios) expect((await judged(s, { runner: NoFlaw, storage: 'memory' })).passed, s.id).toBe(true);
  });

  describe.each(MUTANTS.map((m) => [m.name, m] as const))('mutant %s', (_name, mutant) => {
    it(`is caught by ${mutant.caughtBy.invariant} on ${mutant.caughtBy.scenario}`, async () => {
      const run = await judged(byId(mutant.caughtBy.scenario), { runner: mutant.runner, tool: mutant.tool, storage: 'memory' });
      const check = run.checks.find((c) => c.id === mutant.caughtBy.invariant)!;
      expect(check.passed).toBe(false);
      expect(word('en', check.message).length).toBeGreaterThan(40); // a sentence that teaches, not a code
    });
  });

  it.each(INVARIANTS.map((inv) => inv.id))('%s catches at least one mutant', async (id) => {
    expect(MUTANTS.filter((m) => m.caughtBy.invariant === id).map((m) => m.name)).not.toEqual([]);
  });

  it('name the mistake in their messages', async () => {
    const message = async (name: string) => {
      const m = MUTANTS.find((x) => x.name === name)!;
      return word('en', (await judged(byId(m.caughtBy.scenario), { runner: m.runner, tool: m.tool, storage: 'memory' })).checks.find((c) => c.id === m.caughtBy.invariant)!.message);
    };
    expect(await message('new_key_per_attempt')).toBe(
      'reserve (decision 4) at call 5 used key lost_reply:reserve:attempt-5, but its first attempt (call 4) used lost_reply:reserve:attempt-4: a retry must reuse the key made when the action was prepared',
    );
    expect(await message('version_before_ledger')).toMatch(/ContractError STALE_VERSION to a request whose effect is already committed under the same key and fingerprint/);
    expect(await message('receipt_outside_transaction')).toBe(
      "camera is 2 (v1) but 3 (v0) minus the ledger's 0 in 0 row(s) gives 3 (v0): an effect without a receipt — the effect and its receipt must commit in one transaction",
    );
    expect(await message('contract_error_retried')).toMatch(/tried reserve again \(attempt 2\) after ContractError STALE_VERSION: a contract error is never retried/);
    expect(await message('no_budget_check')).toBe('the runner put 5 requests on the wire with max_calls 4: the budget must be checked before every attempt, retries included');
    expect(await message('pending_dropped_after_transient')).toMatch(/no reserve observation/);
    expect(await message('finish_not_saved')).toMatch(/^after step 5 the runner held a state its log would not rebuild: its last event #13 differs in status \(log: "running", runner: "succeeded"\)/);
    expect(await message('waits_for_lost_reply')).toBe(
      'no terminal status after 100 steps (bound 100): status is still running with reserve still pending after 1 attempt(s) — the run stopped making progress',
    );
  });
});

describe('invariants 2 and 3 hold after every step, not only at the end', () => {
  const withFlaw = (flaws: Flaws) =>
    class extends FlawedRunner {
      protected readonly flaws = flaws;
    };
  const broken = async (id: string, flaws: Flaws) => {
    const run = await judged(byId(id), { runner: withFlaw(flaws), storage: 'memory' });
    return run.checks.filter((c) => c.kind === 'invariant' && !c.passed).map((c) => [c.id, word('en', c.message)]);
  };

  it('inv2: attempts that go on from the last action (no attempts = 0) break it at the step the count runs ahead', async () => {
    expect(await broken('happy_path', { noAttemptsReset: true })).toEqual([
      ['inv2_call_budget', 'at step 2 read_doc was sent as attempt 2, but only 1 attempt(s) of it had been made since it was prepared: attempts counts the pending action\'s own tries — it starts again at 0 when an action is prepared'],
    ]);
  });

  it('inv2: a TransientError retried past max_retries breaks it, though the budget holds', async () => {
    const [first] = await broken('transient_read_exhausted', { ignoreRetryLimit: true });
    expect(first).toEqual(['inv2_call_budget', 'at step 5 read_doc was tried again after 3 TransientError(s) with max_retries 2: once the retries are spent the run ends retry_exhausted']);
  });

  it('inv3: an observation saved with its action still pending breaks it, even when the step saves again before it returns (inv4 holds)', async () => {
    expect(await broken('happy_path', { observeBeforeClearing: true })).toEqual([
      ['inv3_same_key_same_args', 'at step 1 the runner saved #4 observed with search_docs(query=camera) still pending after the tool had answered it: clear pending in the same save that records the answer, or a crash right after that save sends the action again'],
    ]);
  });

  it('inv3: a pending action dropped before its answer is recorded breaks it at that save', async () => {
    const failed = await broken('lost_reply', { dropPendingAfterTransient: true });
    expect(failed.find(([id]) => id === 'inv3_same_key_same_args')?.[1]).toMatch(/^at step 4 the runner saved #\d+ transient:lost_reply without reserve\(.*\) pending, though its answer was never recorded/);
  });
});

describe('invariant 1 also counts receipts against intents', () => {
  it('flags a second effect for one intent', async () => {
    // A runner that re-sends an exhausted reserve under a new key AND a fresh version would take a second camera.
    const { ReferenceRunner } = await import('../../src/runner/ReferenceRunner.js');
    const s = byId('lost_reply');
    const run = await judged(s, { runner: ReferenceRunner, storage: 'memory' });
    expect(run.checks.find((c) => c.id === 'inv1_one_effect_per_intent')?.passed).toBe(true);
    // Forge the end state a double effect would leave: two receipts for the task's one reserve intent.
    const forged = { ...run, db: { ...run.db, ledger: [...run.db.ledger, { ...run.db.ledger[0]!, key: 'lost_reply:reserve:another' }], items: run.db.items.map((i) => (i.item_id === 'camera' ? { ...i, available: 1, version: 2 } : i)) } };
    const { inv1 } = await import('../../src/check/invariants.js');
    expect(word('en', inv1(forged).message)).toBe('reserve took effect 2 times for 1 intent(s): 2 ledger rows for task lost_reply — did a retry make a new idempotency key?');
  });
});
