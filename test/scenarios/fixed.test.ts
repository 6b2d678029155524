/**
 * docs/spec.md §6: the 17 fixed scenarios and their acceptance figures. The table is written out here, not read
 * from the YAML, so a drifting scenario file cannot make its own test pass.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/check/RunResult.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { camera, cli, run, scenario } from '../support.js';

const SPEC_6 = [
  // id, status, calls, ledger rows, camera available
  ['happy_path', 'succeeded', 4, 1, 2],
  ['read_only', 'succeeded', 2, 0, 3],
  ['transient_read', 'succeeded', 5, 1, 2],
  ['transient_read_exhausted', 'retry_exhausted', 4, 0, 3],
  ['lost_reply', 'succeeded', 5, 1, 2],
  ['lost_reply_no_retry', 'retry_exhausted', 4, 1, 2],
  ['crash_after_commit', 'succeeded', 5, 1, 2],
  ['crash_before_commit', 'succeeded', 5, 1, 2],
  ['crash_after_prepared', 'succeeded', 4, 1, 2],
  ['payload_conflict', 'tool_error', 5, 1, 2],
  ['stale_version', 'tool_error', 4, 1, 2],
  ['retry_after_version_moved', 'succeeded', 5, 2, 1],
  ['insufficient_stock', 'tool_error', 4, 0, 3],
  ['unknown_item', 'tool_error', 3, 0, 3],
  ['budget_exhausted', 'budget_exhausted', 4, 0, 3],
  ['policy_error', 'policy_error', 2, 0, 3],
  ['unauthorized_action', 'policy_error', 3, 0, 3],
] as const;

describe('the 17 fixed scenarios (docs/spec.md §6)', () => {
  it('are exactly the 17 of docs/spec.md §6, numbered in its order', async () => {
    const loaded = loadScenarios();
    expect(loaded.map((s) => s.id)).toEqual(SPEC_6.map(([id]) => id));
    expect(loaded.map((s) => s.order)).toEqual(SPEC_6.map((_, i) => i + 1));
  });

  describe.each(SPEC_6)('%s', (id, status, calls, ledger, stock) => {
    let result: RunResult;
    beforeAll(async () => {
      result = await run(id, { storage: 'file' });
    });

    it(`ends ${status} after ${calls} calls with ${ledger} ledger row(s) and ${stock} camera(s) left`, async () => {
      expect(result.state?.status).toBe(status);
      expect(result.state?.calls).toBe(calls);
      expect(result.db.ledger).toHaveLength(ledger);
      expect(camera(result)).toBe(stock);
    });

    it('states the same figures in its YAML', async () => {
      const expected = scenario(id).expect;
      expect([expected.status, expected.calls, expected.ledger, expected.stock?.camera]).toEqual([status, calls, ledger, stock]);
    });

    it('holds every check: faults fired, expectations, invariants', async () => {
      expect(result.checks.filter((c) => !c.passed)).toEqual([]);
      expect(result.checks.filter((c) => c.kind === 'invariant')).toHaveLength(7);
      expect(result.passed).toBe(true);
    });
  });

  it('keep the figures the issue names for the uncertain endings', async () => {
    const noRetry = await run('lost_reply_no_retry');
    expect(noRetry.state?.pending?.name).toBe('reserve');
    expect(Object.keys(noRetry.state?.observations ?? {}).sort()).toEqual(['get_stock', 'read_doc', 'search_docs']);
    const exhausted = await run('transient_read_exhausted');
    expect(exhausted.state?.pending?.name).toBe('read_doc');
    expect(exhausted.state?.attempts).toBe(3);
  });

  it('report the figures of docs/spec.md §6 exactly in --json', async () => {
    const { code, stdout, stderr } = await cli(['run', '--json']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const doc = JSON.parse(stdout) as { scenarios: Array<Record<string, unknown>>; passed: number; failed: number };
    expect(doc.passed).toBe(17);
    expect(doc.failed).toBe(0);
    expect(doc.scenarios.map((s) => [s.id, s.status, s.calls, s.ledger, (s.stock as Record<string, number>).camera])).toEqual(SPEC_6.map((row) => [...row]));
    for (const s of doc.scenarios) {
      expect(s.passed).toBe(true);
      expect(s.violations).toEqual([]);
    }
  });
});
