/**
 * The many-worker scenarios (scenarios/workers, issue 22): leases, fencing tokens and zombies, each run by the
 * one harness and judged by the one verdict. The figures are written out here, not read from the YAML, so a
 * drifting scenario file cannot make its own test pass; each scenario gets its own describe, with the figures
 * that would move if its rule broke.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerFigures } from '../../src/check/workerFigures.js';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import type { RunResult } from '../../src/check/RunResult.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { camera, events, judged, scenario } from '../support.js';

const WORKERS_DIR = join(SCENARIOS_DIR, 'workers');

const SCENARIOS = [
  // id, workers, status, calls, ledger rows, camera available, crashes, task, grants, stale writes refused
  ['double_claim_race', 3, 'succeeded', 4, 1, 2, 0, 'done', 1, 0],
  ['zombie_after_pause', 2, 'succeeded', 5, 1, 2, 0, 'done', 2, 2],
  ['crash_after_commit_other_worker', 2, 'succeeded', 5, 1, 2, 1, 'done', 2, 0],
  ['stale_completion_after_reclaim', 2, 'succeeded', 4, 1, 2, 0, 'done', 2, 1],
  ['rescuer_races_completion', 2, 'succeeded', 4, 1, 2, 0, 'done', 2, 1],
  ['lost_claim_reply', 2, 'succeeded', 4, 1, 2, 0, 'done', 2, 0],
  ['deferred_upgrade_busy', 2, 'succeeded', 4, 1, 2, 0, 'done', 1, 0],
  ['lease_expires_before_reserve', 2, 'succeeded', 5, 1, 2, 0, 'done', 2, 2],
  ['zombie_redoes_work', 2, 'succeeded', 5, 1, 2, 0, 'done', 2, 1],
] as const;

const runs = new Map<string, RunResult>();
async function ran(id: string): Promise<RunResult> {
  if (!runs.has(id)) runs.set(id, await judged(scenario(id)));
  return runs.get(id)!;
}

/** What each worker was told when a write of its was refused: `w1 reserve`, `w1 log tool_error`, `w1 complete`. */
function refusals(run: RunResult): string[] {
  return run.trace.flatMap((e) => {
    if (e.type === 'reply' && !e.outcome.ok && e.outcome.error.code === 'STALE_FENCE') return [`${e.worker} ${e.tool}`];
    if (e.type === 'save_refused') return [`${e.worker} log ${e.label}`];
    if (e.type === 'holder' && !e.ok) return [`${e.worker} ${e.op}`];
    return [];
  });
}

/** Every grant, as the queue's table showed it: `w1:1`, `w2:2`. */
function grants(run: RunResult): string[] {
  return events(run, 'tasks').flatMap((e) => e.changes.filter((c) => c.to?.state === 'running' && (c.from?.state !== 'running' || c.from.owner !== c.to.owner || c.from.token !== c.to.token)).map((c) => `${c.to!.owner}:${c.to!.token}`));
}

describe('the many-worker scenarios (scenarios/workers)', () => {
  it('are the nine of issue 22, in their order', () => {
    expect(loadScenarios([WORKERS_DIR]).map((s) => s.id)).toEqual(SCENARIOS.map(([id]) => id));
  });

  describe.each(SCENARIOS)('%s', (id, count, status, calls, ledger, stock, crashes, task, grantCount, stale) => {
    it(`${count} workers: ends ${status} after ${calls} calls, ${ledger} ledger row, ${stock} cameras left, the task ${task} after ${grantCount} grant(s) and ${stale} stale write(s) refused — every check held`, async () => {
      const run = await ran(id);
      expect(run.workers?.names).toHaveLength(count);
      expect([run.state?.status, run.state?.calls, run.db.ledger.length, camera(run), run.crashes]).toEqual([status, calls, ledger, stock, crashes]);
      expect(workerFigures(run)).toEqual({ task, grants: grantCount, stale_refused: stale });
      expect(run.checks.filter((c) => !c.passed)).toEqual([]);
      expect(run.checks.filter((c) => c.kind === 'invariant').map((c) => c.id.split('_')[0])).toEqual(['inv1', 'inv2', 'inv3', 'inv4', 'inv5', 'inv6', 'inv7', 'inv8', 'inv9', 'inv10', 'inv11', 'inv12', 'inv13']);
    });
  });
});

describe('double_claim_race: three claims at once, one token', () => {
  it('grants the task to w1 under token 1; w2 and w3 wait for its lock, then find nothing', async () => {
    const run = await ran('double_claim_race');
    expect(grants(run)).toEqual(['w1:1']);
    expect(events(run, 'busy').map((e) => `${e.worker} ${e.op}`)).toEqual(expect.arrayContaining(['w2 claim:read', 'w3 claim:read']));
    expect(events(run, 'claim').map((e) => `${e.worker} ${e.granted?.token ?? '-'}`)).toEqual(['w1 1', 'w2 -', 'w3 -']);
  });
});

describe('zombie_after_pause: the zombie writes nothing', () => {
  it('refuses w1’s reserve and its tool_error under token 1; the one effect is w2’s, under token 2', async () => {
    const run = await ran('zombie_after_pause');
    expect(grants(run)).toEqual(['w1:1', 'w2:2']);
    expect(refusals(run)).toEqual(['w1 reserve', 'w1 log tool_error']);
    expect(run.workers?.tokens.map((r) => `${r.owner}:${r.token}`)).toEqual(['w2:2']);
    expect(events(run, 'lease_expired').map((e) => `${e.worker} ${e.token} ${e.at}`)).toEqual(['w1 1 500']);
    // Nothing the zombie wrote is in the log: every line after w2's grant carries token 2.
    expect(events(run, 'saved').filter((e) => e.worker === 'w1').every((e) => e.token === 1 && e.t < 500)).toBe(true);
  });
});

describe('crash_after_commit_other_worker: another worker, the same intent', () => {
  it('w2 retries w1’s pending reserve with its key and gets the original receipt from the ledger', async () => {
    const run = await ran('crash_after_commit_other_worker');
    expect(events(run, 'crash').map((e) => `${e.worker} ${e.point}`)).toEqual(['w1 crash_after_commit']);
    const hit = events(run, 'db').find((e) => e.ledgerHit !== undefined)!;
    expect(hit.worker).toBe('w2');
    expect(hit.ledgerHit!.receiptId).toBe((run.db.ledger[0]!.result as { reservation_id: string }).reservation_id);
    expect(run.state?.observations.reserve).toEqual(run.db.ledger[0]!.result);
    expect(run.workers?.tokens.map((r) => `${r.owner}:${r.token}`)).toEqual(['w1:1']); // the receipt is w1's, committed under its grant
  });
});

describe('stale_completion_after_reclaim: a completion is a guarded write', () => {
  it('w2 completes under token 2; w1’s completion under token 1 is refused, and the task stays done by token 2', async () => {
    const run = await ran('stale_completion_after_reclaim');
    expect(refusals(run)).toEqual(['w1 complete']);
    expect(run.workers?.tasks[0]).toMatchObject({ state: 'done', owner: 'w2', token: 2, finished_token: 2 });
  });
});

describe('rescuer_races_completion: no resurrection', () => {
  it('the sweeper holds its lock from its read to its write: w1’s completion waits, then is refused; the task ends done once', async () => {
    const run = await ran('rescuer_races_completion');
    expect(run.workers?.unapplied).toEqual([]);
    expect(events(run, 'busy').map((e) => `${e.worker} ${e.op}`)).toContain('w1 write');
    expect(refusals(run)).toEqual(['w1 complete']);
    const states = events(run, 'tasks').flatMap((e) => e.changes.map((c) => c.to?.state));
    expect(states.filter((s) => s === 'done')).toEqual(['done']);
  });
});

describe('lost_claim_reply: the same worker’s re-claim gets a new token', () => {
  it('grants the task to w1 twice, under tokens 1 and 2; only token 2 ever writes', async () => {
    const run = await ran('lost_claim_reply');
    expect(grants(run)).toEqual(['w1:1', 'w1:2']);
    expect(events(run, 'claim').filter((e) => e.granted !== null).map((e) => e.granted!.reclaim)).toEqual([false, true]);
    expect(new Set(events(run, 'saved').map((e) => e.token))).toEqual(new Set([2]));
  });
});

describe('deferred_upgrade_busy: BEGIN IMMEDIATE against a deferred upgrade', () => {
  it('makes w2’s BEGIN wait for w1’s lock: one grant', async () => {
    const run = await ran('deferred_upgrade_busy');
    expect(grants(run)).toEqual(['w1:1']);
    expect(events(run, 'busy').map((e) => `${e.worker} ${e.op}`)).toContain('w2 claim:read');
  });
});

describe('lease_expires_before_reserve: a check is a race, the fence is not', () => {
  it('refuses w1’s reserve under token 1 after w2 claimed under token 2, though w1’s lease was valid when it read the stock', async () => {
    const run = await ran('lease_expires_before_reserve');
    expect(grants(run)).toEqual(['w1:1', 'w2:2']);
    expect(refusals(run)).toEqual(['w1 reserve', 'w1 log tool_error']);
    const getStock = events(run, 'reply').find((e) => e.worker === 'w1' && e.tool === 'get_stock')!;
    expect(getStock.t).toBeLessThan(500);
    expect(run.workers?.tokens.map((r) => `${r.owner}:${r.token}`)).toEqual(['w2:2']);
  });
});

describe('zombie_redoes_work: the budget holds across workers', () => {
  it('lets w1’s woken read out, refuses the observation it saves, and keeps the task at 5 calls of 6', async () => {
    const run = await ran('zombie_redoes_work');
    expect(refusals(run)).toEqual(['w1 log observed']);
    expect(events(run, 'request').filter((e) => e.by === 'runner').map((e) => `${e.worker} ${e.action.name}`)).toEqual([
      'w1 search_docs',
      'w2 read_doc',
      'w1 read_doc',
      'w2 get_stock',
      'w2 reserve',
    ]);
  });
});
