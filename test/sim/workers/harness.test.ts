/**
 * The many-worker harness (src/sim/workers): each worker a process of its own on one shared file, one
 * scheduler, one seed. Scenarios are built here from the chapter's happy path, so these tests hold the harness
 * itself; the YAML scenarios of scenarios/workers have their own (test/scenarios/workers.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { FaultSpec } from '../../../src/faults/types.js';
import type { Scenario } from '../../../src/scenario/types.js';
import { camera, events, run, scenario } from '../../support.js';
import { judged } from '../../support.js';

function workers(count: number, faults: FaultSpec[] = [], id = 'happy_path'): Scenario {
  const s = scenario(id);
  s.workers = { count, lease_ms: 500, sweep_every_ms: 250, poll_ms: 100, schedule: [] };
  s.faults = faults;
  delete s.expect.calls;
  return s;
}

describe('many workers on one task', () => {
  it('one worker claims, runs and completes the task: token 1, one effect, every event in its lane', async () => {
    const result = await judged(workers(1));
    expect([result.state?.status, result.db.ledger.length, camera(result), result.workers?.tasks[0]]).toEqual([
      'succeeded',
      1,
      2,
      { task_id: 'happy_path', state: 'done', owner: 'w1', token: 1, lease_until_ms: null, finished_token: 1 },
    ]);
    expect(new Set(result.trace.map((e) => e.worker))).toEqual(new Set(['w1', undefined]));
    expect(events(result, 'saved').every((e) => e.token === 1)).toBe(true);
    expect(result.workers?.tokens).toEqual([{ key: result.db.ledger[0]!.key, task_id: 'happy_path', owner: 'w1', token: 1 }]);
  });

  it('gives the task to one of two workers: the other finds nothing, after waiting for the first one’s lock', async () => {
    const result = await judged(workers(2));
    expect(events(result, 'claim').map((e) => [e.worker, e.granted?.token ?? null])).toEqual([
      ['w1', 1],
      ['w2', null],
    ]);
    expect(events(result, 'busy').map((e) => [e.worker, e.op])).toContainEqual(['w2', 'claim:read']);
  });

  it('is a function of the seed: the same run twice, trace for trace', async () => {
    const faults: FaultSpec[] = [{ kind: 'worker_pause', at: { worker: 'w1', point: 'request', tool: 'reserve' }, ms: 1500 }];
    const [a, b] = [await judged(workers(2, faults)), await judged(workers(2, faults))];
    expect(JSON.stringify(a.trace)).toBe(JSON.stringify(b.trace));
    expect(a.workers?.choices).toEqual(b.workers?.choices);
  });

  it('a paused holder comes back as a zombie: its reserve refused with STALE_FENCE, one effect, the task done by the next holder', async () => {
    const result = await judged(workers(2, [{ kind: 'worker_pause', at: { worker: 'w1', point: 'request', tool: 'reserve' }, ms: 1500 }]));
    const refused = events(result, 'reply').filter((e) => !e.outcome.ok);
    expect(refused.map((e) => [e.worker, e.outcome.ok ? '' : e.outcome.error.code])).toEqual([['w1', 'STALE_FENCE']]);
    expect([result.db.ledger.length, camera(result), result.workers?.tasks[0]?.state, result.workers?.tasks[0]?.token]).toEqual([1, 2, 'done', 2]);
    expect(events(result, 'lease_expired').map((e) => [e.worker, e.token, e.at])).toEqual([['w1', 1, 500]]);
    expect(events(result, 'lease_lost').map((e) => [e.worker, e.token])).toEqual([['w1', 1]]);
  });

  it('a crash after the commit: another worker takes the task once the lease has expired, and the ledger gives it the original receipt', async () => {
    const result = await judged(workers(2, [{ kind: 'crash_after_commit', at: { worker: 'w1', tool: 'reserve', attempt: 1 } }]));
    expect([result.state?.status, result.db.ledger.length, camera(result), result.crashes]).toEqual(['succeeded', 1, 2, 1]);
    const hit = events(result, 'db').find((e) => e.ledgerHit !== undefined);
    expect(hit?.worker).toBe('w2');
    expect(result.state?.observations.reserve).toEqual(result.db.ledger[0]!.result);
  });
});

describe('the worker faults, each at its point', () => {
  it('worker_crash between the claim and the start: the lease outlives the process, the next holder starts the task from nothing', async () => {
    const result = await judged(workers(2, [{ kind: 'worker_crash', at: { worker: 'w1', point: 'claimed' } }]));
    expect(events(result, 'crash').map((e) => `${e.worker} ${e.point} ${e.t}`)).toEqual(['w1 worker_crash 0']);
    expect(events(result, 'crash')[0]!.message).toEqual({ code: 'workers.crash.processDies', params: { worker: 'w1' } }); // data, worded by the trace
    expect(events(result, 'recovered').map((e) => `${e.worker} ${e.seq}`)).toEqual(['w2 null']);
    expect([result.state?.status, result.state?.calls, result.db.ledger.length, result.crashes, result.workers?.tasks[0]?.token]).toEqual(['succeeded', 4, 1, 1, 2]);
    expect(result.checks.filter((c) => !c.passed)).toEqual([]);
  });

  it('heartbeat_starved: the worker works on, its lease runs out under it, and its next write is refused', async () => {
    const s = workers(2, [{ kind: 'heartbeat_starved', at: { worker: 'w1', point: 'claimed' }, ms: 1000 }]);
    s.workers = { ...s.workers!, lease_ms: 90, sweep_every_ms: 20, poll_ms: 10 };
    const result = await judged(s);
    expect(events(result, 'starved').map((e) => `${e.worker} ${e.until}`)).toEqual(['w1 1000']);
    expect(events(result, 'holder').filter((e) => e.op === 'renew' && e.worker === 'w1')).toEqual([]);
    expect(events(result, 'lease_lost').map((e) => e.worker)).toContain('w1');
    expect([result.state?.status, result.db.ledger.length, camera(result)]).toEqual(['succeeded', 1, 2]);
    expect(result.checks.filter((c) => !c.passed)).toEqual([]);
  });

  it('a fed heartbeat keeps the same lease alive through a long task: one grant, renewed', async () => {
    const s = workers(2);
    s.workers = { ...s.workers!, lease_ms: 90, sweep_every_ms: 20, poll_ms: 10 };
    const result = await judged(s);
    expect(events(result, 'holder').filter((e) => e.op === 'renew').length).toBeGreaterThan(0);
    expect(result.workers?.tasks[0]).toMatchObject({ state: 'done', owner: 'w1', token: 1 });
  });
});

describe('one runner: the chapter’s harness, untouched', () => {
  it('stamps no lane and emits no queue event', async () => {
    const result = await run('crash_after_commit');
    expect(result.trace.some((e) => 'worker' in e)).toBe(false);
    expect(result.workers).toBeUndefined();
  });
});
