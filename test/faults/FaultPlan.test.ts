/**
 * A fault fires when it acts, not when its point is reached. Two faults at one attempt do not both act when the
 * first (in the order of docs/spec.md §5) ends the attempt — a transient before a lost reply — and the same fault
 * twice acts once: the one that did not act stays unfired, so "every listed fault fired" fails and the scenario is
 * reported broken, never a pass. Faults that can act together at one attempt still both fire.
 */
import { describe, expect, it } from 'vitest';
import { isBrokenScenario } from '../../src/check/scenarioIntegrity.js';
import type { FaultSpec } from '../../src/faults/types.js';
import { word } from '../../src/render/words/index.js';
import { judged, scenario } from '../support.js';

const AT_RESERVE_1 = { tool: 'reserve', attempt: 1 };

async function withFaults(faults: FaultSpec[]) {
  const s = scenario('lost_reply');
  s.faults = faults;
  s.expect = {};
  return judged(s, { storage: 'memory' });
}

const faultsCheck = (run: Awaited<ReturnType<typeof withFaults>>) => run.checks.find((check) => check.id === 'faults_fired')!;

describe('two faults at one point', () => {
  it('a transient and a lost reply at reserve attempt 1: the transient acts, the lost reply never does, and the scenario is broken', async () => {
    const run = await withFaults([
      { kind: 'lost_reply', at: AT_RESERVE_1 },
      { kind: 'transient', at: AT_RESERVE_1 },
    ]);
    expect(run.faults.map((f) => [f.spec.kind, f.firedAt?.attempt ?? null])).toEqual([
      ['lost_reply', null],
      ['transient', 1],
    ]);
    expect(run.trace.filter((e) => e.type === 'fault').map((e) => (e as { fault: FaultSpec }).fault.kind)).toEqual(['transient']);
    expect([faultsCheck(run).passed, faultsCheck(run).actual, isBrokenScenario(run)]).toEqual([false, 1, true]);
    expect(word('en', faultsCheck(run).message)).toBe('broken scenario: lost_reply at reserve attempt 1 never fired — the run never reached that point, or another fault there ended the attempt first, so it tested nothing there');
  });

  it('a concurrent reserve and a lost reply: the version moved, the reserve is refused, and the lost reply never acts', async () => {
    const run = await withFaults([
      { kind: 'lost_reply', at: AT_RESERVE_1 },
      { kind: 'concurrent_reserve', at: AT_RESERVE_1 },
    ]);
    expect(run.faults.map((f) => f.firedAt?.attempt ?? null)).toEqual([null, 1]);
    expect(isBrokenScenario(run)).toBe(true);
  });

  it('the same lost reply twice: it acts once, and the second is reported as never fired', async () => {
    const run = await withFaults([
      { kind: 'lost_reply', at: AT_RESERVE_1 },
      { kind: 'lost_reply', at: AT_RESERVE_1 },
    ]);
    expect(run.faults.map((f) => f.firedAt !== null)).toEqual([true, false]);
    expect([faultsCheck(run).passed, run.passed]).toEqual([false, false]);
  });

  it('a duplicate delivery and a lost reply at one attempt both act, and both fire', async () => {
    const run = await withFaults([
      { kind: 'lost_reply', at: AT_RESERVE_1 },
      { kind: 'duplicate_delivery', at: AT_RESERVE_1 },
    ]);
    expect(run.faults.map((f) => f.firedAt?.attempt ?? null)).toEqual([1, 1]);
    expect(faultsCheck(run).passed).toBe(true);
  });
});
