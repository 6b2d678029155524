/**
 * docs/spec.md §13–§14: the chapter's two limits, run. Each rule of §13 has a pair of scenarios that differ in
 * that rule alone — without it (scenarios/limits/unsafe/) a named check fails, with it (scenarios/limits/) every
 * check holds; the keyless service shows a blind retry charging twice, and the query, the outbox and the
 * compensation each charging once. The figures are written out here, not read from the YAML.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/check/RunResult.js';
import { totalCalls } from '../../src/check/durabilityFigures.js';
import { purgedReceipts } from '../../src/check/limits.js';
import { word } from '../../src/render/words/index.js';
import { loadScenario } from '../../src/scenario/load.js';
import { camera, cli, events, failedChecks, judged } from '../support.js';

/** id, status, calls, ledger rows, camera, receipts purged, charges, the checks that fail (none: it holds) */
const LIMITS = [
  // rule 4: the task delivered again after the purge (lesson 7's replay, on a real purge)
  ['purge_task_replayed', 'succeeded', 6, 1, 1, 1, 0, ['inv14_one_effect_in_history']],
  ['purge_task_replayed_finished_tasks', 'tool_error', 5, 0, 2, 1, 0, []],
  // rule 1: a deadline the tool checks
  ['purge_late_task_no_deadline', 'succeeded', 4, 1, 1, 1, 0, ['inv14_one_effect_in_history']],
  ['purge_late_task_deadline', 'tool_error', 4, 0, 2, 1, 0, []],
  // rule 2: receipts kept as long as a request may arrive
  ['purge_before_deadline', 'succeeded', 4, 1, 1, 1, 0, ['inv14_one_effect_in_history']],
  ['purge_receipts_outlive_requests', 'tool_error', 4, 1, 2, 0, 0, []],
  // rule 3: a late request for a purged key is told so
  ['purge_late_retry_stale', 'tool_error', 3, 0, 2, 1, 0, ['inv5_contract_error_changes_nothing']],
  ['purge_late_retry_tombstone', 'tool_error', 3, 0, 2, 1, 0, []],
  // the keyless service
  ['remote_blind_retry_lost_reply', 'succeeded', 4, 1, 2, 0, 2, ['inv14_one_effect_in_history']],
  ['remote_blind_retry_crash_after_commit', 'succeeded', 4, 1, 2, 0, 2, ['inv14_one_effect_in_history']],
  ['remote_query_lost_reply', 'succeeded', 4, 1, 2, 0, 1, []],
  ['remote_query_crash_after_commit', 'succeeded', 4, 1, 2, 0, 1, []],
  ['remote_outbox_crash_after_commit', 'succeeded', 3, 1, 2, 0, 1, []],
  ['remote_outbox_crash_mid_reserve', 'succeeded', 3, 1, 2, 0, 1, []],
  ['remote_compensation_declined', 'gave_up', 5, 2, 3, 0, 0, []],
  ['remote_compensation_charged', 'succeeded', 4, 1, 2, 0, 1, []],
] as const;

describe.each(LIMITS)('%s', (id, status, calls, ledger, stock, purged, charges, failing) => {
  let result: RunResult;
  beforeAll(async () => {
    result = await judged(loadScenario(id), { storage: 'memory' });
  });

  it(`ends ${status} after ${calls} calls, ${ledger} receipt(s) kept, camera ${stock}, ${purged} purged, ${charges} charged`, () => {
    expect(result.state?.status).toBe(status);
    expect(totalCalls(result)).toBe(calls);
    expect(result.db.ledger.length).toBe(ledger);
    expect(camera(result)).toBe(stock);
    expect(purgedReceipts(result).length).toBe(purged);
    expect(result.db.charges?.length ?? 0).toBe(charges);
  });

  it(failing.length === 0 ? 'holds every check, its figures included' : `fails ${failing.join(', ')} and nothing else`, () => {
    expect(failedChecks(result)).toEqual([...failing]);
  });

  it('is the same run in files as in memory', async () => {
    const inFiles = await judged(loadScenario(id), { storage: 'file' });
    expect(JSON.stringify([inFiles.trace, inFiles.state, inFiles.db])).toBe(JSON.stringify([result.trace, result.state, result.db]));
  });
});

describe('several scenarios in one faultlab run', () => {
  it('each start from their own tables: a second one does not meet the first one\'s charges, outbox or history', async () => {
    const out = await cli(['run', 'remote_blind_retry_lost_reply', 'remote_query_lost_reply', 'remote_outbox_crash_after_commit', 'purge_task_replayed_finished_tasks', '--json']);
    const doc = JSON.parse(out.stdout) as { scenarios: Array<{ id: string; passed: boolean; charges?: number }> };
    expect(doc.scenarios.map((s) => [s.id, s.passed, s.charges])).toEqual([
      ['remote_blind_retry_lost_reply', false, 2],
      ['remote_query_lost_reply', true, 1],
      ['remote_outbox_crash_after_commit', true, 1],
      ['purge_task_replayed_finished_tasks', true, undefined],
    ]);
  });
});

describe('the purge (docs/spec.md §13)', () => {
  it('really deletes: the receipt is gone from the ledger, the trace says when, the history keeps the effect', async () => {
    const run = await judged(loadScenario('purge_task_replayed'), { storage: 'memory' });
    const [purge] = events(run, 'purge');
    expect(purge!.removed.map((row) => row.key)).toEqual(['purge_task_replayed:reserve:2872d1b41daae32b0ce88be6d8774feb']);
    expect(purge!.keepMs).toBe(3_600_000);
    expect(purge!.t).toBeGreaterThanOrEqual(7_200_000);
    expect(purge!.diff.ledgerRemoved.map((row) => (row.result as { reservation_id: string }).reservation_id)).toEqual(['res_3192e4']);
    expect(run.db.ledger.map((row) => (row.result as { reservation_id: string }).reservation_id)).toEqual(['res_6f40bd']);
    expect(run.db.history?.map((row) => [row.key === purge!.removed[0]!.key, row.delta])).toEqual([
      [true, -1],
      [true, -1],
    ]);
  });

  it('under rule 2 keeps a receipt as long as a request may stay valid, whatever receipts_ms says', async () => {
    const run = await judged(loadScenario('purge_receipts_outlive_requests'), { storage: 'memory' });
    expect(events(run, 'purge')).toEqual([]);
    const refused = events(run, 'reply').find((e) => !e.outcome.ok);
    expect(refused?.outcome.ok === false && refused.outcome.error.code).toBe('PAYLOAD_CONFLICT');
  });

  it('under rule 3 leaves a tombstone, and the late retry is told RECEIPT_PURGED', async () => {
    const run = await judged(loadScenario('purge_late_retry_tombstone'), { storage: 'memory' });
    expect(run.db.tombstones?.map((row) => row.key)).toEqual(['purge_late_retry_tombstone:reserve:2872d1b41daae32b0ce88be6d8774feb']);
    expect(run.state?.result?.error).toMatch(/^RECEIPT_PURGED: the receipt of key .* was purged at \d+ ms .*: this very request took effect then — it is not run again$/);
  });

  it('a late delivery waits on the wire: the retry reaches the tool two hours after it was sent', async () => {
    const run = await judged(loadScenario('purge_late_retry_stale'), { storage: 'memory' });
    const requests = events(run, 'request').filter((e) => e.action.name === 'reserve');
    const refusal = events(run, 'reply').find((e) => !e.outcome.ok && e.outcome.error.class === 'ContractError')!;
    expect(refusal.t - requests[1]!.t).toBeGreaterThanOrEqual(7_200_000);
  });
});

describe('a task delivered again (docs/spec.md §13)', () => {
  it('starts a fresh runner from the task\'s first state, after the delay, with its own call budget', async () => {
    const run = await judged(loadScenario('purge_task_replayed'), { storage: 'memory' });
    const [redelivery] = events(run, 'redelivery');
    expect(redelivery!.afterMs).toBe(7_200_000);
    const labels = run.log.map((e) => e.label);
    expect(labels.filter((l) => l === 'redelivered')).toHaveLength(1);
    const fresh = run.log.find((e) => e.label === 'redelivered')!.state;
    expect([fresh.calls, fresh.decisions, fresh.pending, fresh.observations]).toEqual([0, 0, null, {}]);
    expect(run.redeliveries).toEqual([{ callsBefore: 3, relayCalls: 0 }]);
    // the wire numbers calls across the whole scenario: the second delivery's get_stock is call 4
    expect(events(run, 'request').filter((e) => e.by === 'runner').map((e) => e.call)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('the keyless service (docs/spec.md §14)', () => {
  it('charges twice under one reference when the runner resends blindly', async () => {
    const run = await judged(loadScenario('remote_blind_retry_lost_reply'), { storage: 'memory' });
    expect(run.db.charges?.map((c) => c.ref)).toEqual(['remote_blind_retry_lost_reply', 'remote_blind_retry_lost_reply']);
    expect(word('en', run.checks.find((c) => c.id === 'inv14_one_effect_in_history')!.message)).toMatch(/^reference remote_blind_retry_lost_reply was charged 2 times \(ch_\w+, ch_\w+\)/);
  });

  it('asks before it resends when the client is set to query: the status query is part of the attempt, not a call', async () => {
    const run = await judged(loadScenario('remote_query_lost_reply'), { storage: 'memory' });
    const checks = events(run, 'request').filter((e) => e.check);
    expect(checks.map((e) => [e.action.name, e.call, e.attempt])).toEqual([['charge_status', 4, 2]]);
    expect(events(run, 'request').filter((e) => e.action.name === 'charge')).toHaveLength(1);
    expect(run.runnerRequests).toBe(3);
    expect(run.state?.observations.charge).toEqual({ status: 'charged', charge_id: run.db.charges![0]!.charge_id, ref: 'remote_query_lost_reply', amount: 120 });
  });
});

describe('the outbox (docs/spec.md §14.4)', () => {
  it('commits the message with the reservation, and the relay settles it after a lost reply by asking again', async () => {
    const run = await judged(loadScenario('remote_outbox_crash_after_commit'), { storage: 'memory' });
    expect(events(run, 'relay').map((e) => [e.what, e.attempt])).toEqual([
      ['picked', 1],
      ['picked', 2],
      ['found', 2],
    ]);
    expect(run.db.outbox?.map((row) => [row.ref, row.attempts, row.outcome])).toEqual([['remote_outbox_crash_after_commit', 2, 'found']]);
    // the relay's calls come after the task's
    expect(events(run, 'request').filter((e) => e.by === 'relay').map((e) => [e.action.name, e.call])).toEqual([
      ['charge_status', 4],
      ['charge', 5],
      ['charge_status', 6],
    ]);
  });
});

describe('compensation (docs/spec.md §14.5)', () => {
  it('releases the reservation under its own key in the ledger when the charge is declined, and releases once', async () => {
    const run = await judged(loadScenario('remote_compensation_declined'), { storage: 'memory' });
    expect(run.db.ledger.map((row) => [row.key.split(':')[1], row.qty])).toEqual([
      ['reserve', 1],
      ['release', -1],
    ]);
    expect(run.db.history?.map((row) => row.delta)).toEqual([-1, 1]);
    expect(word('en', run.checks.find((c) => c.id === 'inv15_intent_ends_whole')!.message)).toBe('the reservation was released (a compensation in the ledger) and nothing was charged: fully compensated');
  });

  it('skips the compensation when the charge goes through: the same policy, the other branch', async () => {
    const run = await judged(loadScenario('remote_compensation_charged'), { storage: 'memory' });
    expect(run.log.filter((e) => e.label === 'prepared').map((e) => e.state.pending?.name)).toEqual(['get_stock', 'reserve', 'charge']);
  });
});
