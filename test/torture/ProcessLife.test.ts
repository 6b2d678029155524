/**
 * A real worker's life (src/torture/ProcessLife.ts) runs the simulation's protocol on a connection of its own:
 * shown here in one process, on a virtual clock, with two workers and a sweeper on one file — the interleaving a
 * SIGSTOP makes, set by hand, so that what torture's signals make by chance happens here every time.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { openShared } from '../../src/core/storage.js';
import { isContractError } from '../../src/inventory/errors.js';
import { QueueStore } from '../../src/queue/QueueStore.js';
import { runChecks, taskChecks, fileFigures } from '../../src/torture/fileChecks.js';
import { drain, LEASE_MS, life, tortureFile } from './helpers.js';

describe("a real worker's life: the one protocol, on a connection of its own", () => {
  it('finishes every task it claims: one effect, one receipt and eight log lines each, every line under its grant', async () => {
    const { db, path } = tortureFile(5);
    const worker = life(path, 'w1');
    expect(await drain(worker)).toBe(5);
    expect(worker.counts).toEqual({ grants: 5, done: 5, failed: 0, staleRefused: 0, busyRetries: 0 });
    expect(runChecks(db, fileFigures('main'))).toEqual({ queued: 0, running: 0, done: 5, failed: 0, effects: 5, receipts: 5 });
    expect(db.prepare('SELECT label FROM events WHERE task_id = ? ORDER BY seq').pluck().all('t0000000')).toEqual(['started', 'prepared', 'attempt_started', 'observed', 'prepared', 'attempt_started', 'observed', 'succeeded']);
    expect(runChecks(db, taskChecks('main', true)).every((check) => check.passed)).toBe(true);
  });

  /**
   * w1 is granted the task and stops (a SIGSTOP) before its first write; its lease expires, the sweep returns the
   * task, w2 is granted it under token 2 and saves its first line; then w1 wakes and writes.
   */
  async function zombie(runner: string) {
    const { db, path } = tortureFile(1);
    const clock = new VirtualClock();
    const w1 = life(path, 'w1', clock, runner);
    const w2 = life(path, 'w2', clock, runner);
    const g1 = (await w1.claim())!;
    clock.advance(LEASE_MS + 1);
    expect(await new QueueStore({ db: openShared(path), clock, leaseMs: LEASE_MS }).sweep()).toHaveLength(1);
    const g2 = (await w2.claim())!;
    expect([g1.token, g2.token]).toEqual([1, 2]);
    // w2 saves its first line, and stops before the next write
    let writes = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const w2Run = w2.run(g2, { beforeWrite: async () => (++writes === 1 ? undefined : held) });
    while (writes < 2) await new Promise((resolve) => setImmediate(resolve));
    const w1Run = await w1.run(g1).then(
      () => 'ran',
      (error: unknown) => (isContractError(error) ? error.code : error),
    );
    release();
    await w2Run.catch(() => {});
    return { db, w1Run, w1: w1.counts };
  }

  it("refuses the zombie's write: STALE_FENCE, nothing written, and the fence check finds nothing", async () => {
    const { db, w1Run, w1 } = await zombie('reference');
    expect(w1Run).toBe('STALE_FENCE');
    expect(w1.staleRefused).toBe(1);
    expect(db.prepare("SELECT count(*) FROM events WHERE owner = 'w1'").pluck().get()).toBe(0);
    expect(runChecks(db, taskChecks('main', false)).find((check) => check.id === 'fence')!.passed).toBe(true);
  });

  it('lets it in with a store that checks the task but not the holder (mutant:no_fence_check), and the fence check finds it', async () => {
    const { db, w1Run, w1 } = await zombie('mutant:no_fence_check');
    expect(w1Run).toBe('ran');
    expect(w1.staleRefused).toBe(0);
    const fence = runChecks(db, taskChecks('main', false)).find((check) => check.id === 'fence')!;
    expect(fence.passed).toBe(false);
    expect(fence.first!.code).toBe('torture.check.fence.logBackwards');
  });
});
