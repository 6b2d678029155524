/**
 * The first divergence: where a run first parts from the reference run of the same scenario and seed (data),
 * said in the words of the trace. Read on real runs of the core's mutants, one classic mistake each.
 */
import { describe, expect, it } from 'vitest';
import { divergenceText, firstDivergence, referenceStep, type Divergence } from '../../src/grade/divergence.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { loadScenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/classroom/runScenario.js';
import { judged } from '../support.js';

/** A learner's file: it runs in its box, as every learner's runner does. */
const Correct = 'test/fixtures/learners/Correct.ts';

const mutant = (name: string) => MUTANTS.find((m) => m.name === name)!;

async function diverge(scenarioId: string, runner: (typeof MUTANTS)[number] | typeof Correct) {
  const scenario = loadScenario(scenarioId);
  const reference = await judged(scenario, { storage: 'memory' });
  const run = typeof runner !== 'string' ? await judged(scenario, { runner: runner.runner, tool: runner.tool, storage: 'memory' }) : await runScenario(scenarioId, { runner });
  return said(firstDivergence(reference, run));
}

/** Where a divergence is, and what it says in English. */
function said(d: Divergence | null): { step: number; seq?: number; text: string } | null {
  return d === null ? null : { step: d.step, ...(d.seq !== undefined ? { seq: d.seq } : {}), text: divergenceText('en', d) };
}

describe('firstDivergence', () => {
  it('finds none when a different, correct runner saves the same events with the same states', async () => {
    for (const id of ['lost_reply', 'crash_after_commit', 'crash_after_prepared', 'payload_conflict', 'policy_error']) expect(await diverge(id, Correct)).toBeNull();
  });

  it('names the field that differs when both saved the same label: the pending action dropped after a lost reply', async () => {
    expect(await diverge('lost_reply', mutant('pending_dropped_after_transient'))).toEqual({
      step: 4,
      seq: 13,
      text: 'step 4 (#13): both saved transient:lost_reply, but yours has nothing pending, the reference still has reserve(item=camera qty=1 expected_version=0 key=lost_reply:reserve:2872d1b4…) pending',
    });
  });

  it('names the other label when the two runs saved different events: a retried refusal', async () => {
    expect((await diverge('stale_version', mutant('contract_error_retried')))?.text).toBe(
      'step 4 (#13): the reference saved tool_error (STALE_VERSION: expected version 0, found 1), yours saved transient:STALE_VERSION: expected version 0, found 1 (reserve pending)',
    );
  });

  it('tells a request sent out of order from a saved event', async () => {
    // (the mutant is the core's; where it first strikes may change, what the divergence says of it must not)
    expect((await diverge('crash_before_commit', mutant('observation_saved_before_commit')))?.text).toMatch(/^step \d+ \(#\d+\): the reference sent \w+\(.*\), yours saved observed$/);
  });

  it('says when a run ended without saving its end', async () => {
    expect((await diverge('happy_path', mutant('finish_not_saved')))?.text).toBe('step 5: the reference saved succeeded, your run ended with status succeeded without saving it');
  });

  it('points at the reference step, not the step bound, when a run stops moving', async () => {
    expect((await diverge('crash_after_commit', mutant('waits_for_lost_reply')))?.text).toBe(
      'step 5: the reference saved attempt_started (reserve attempt 2, call 5), your run saved nothing more and stopped still running after 100 steps',
    );
  });
});

describe('referenceStep', () => {
  it("tells everything the reference did in a step, for a run that hung there", async () => {
    const reference = await judged(loadScenario('lost_reply'), { storage: 'memory' });
    expect(said(referenceStep(reference, 5))?.text).toBe(
      'step 5: in this step the reference saved attempt_started (reserve attempt 2, call 5), then sent reserve(item=camera qty=1 expected_version=0 key=lost_reply:reserve:2872d1b4…), then saved observed; yours never returned',
    );
    expect(referenceStep(reference, 99)).toBeNull();
  });
});
