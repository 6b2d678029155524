import { afterEach, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { VirtualClock } from '../../../src/core/clock.js';
import { IdempotencyStore } from '../../../src/durability/idempotency/IdempotencyStore.js';
import { openDatabase } from '../../../src/core/storage.js';
import { StoreBusyError } from '../../../src/durability/errors.js';
import { tempDir } from '../helpers.js';

/**
 * "Exactly one of many concurrent callers sees New" — tested with two real better-sqlite3 connections on
 * one database file: first at the worst interleaving (the second caller arrives while the first holds
 * the lock), then from two threads racing for real.
 */

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

function twoConnections(busyTimeoutMs: number): { a: IdempotencyStore; b: IdempotencyStore; path: string } {
  const tmp = tempDir();
  const path = tmp.path('race.db');
  const clock = new VirtualClock();
  const dbA = openDatabase(path, { busyTimeoutMs, shared: true });
  const dbB = openDatabase(path, { busyTimeoutMs, shared: true });
  cleanup.push(() => {
    dbA.close();
    dbB.close();
    tmp.remove();
  });
  return { a: new IdempotencyStore({ db: dbA, clock }), b: new IdempotencyStore({ db: dbB, clock }), path };
}

describe('checkAndRecord across two connections on one file', () => {
  it('refuses the second caller while the first holds the write lock, and then answers it Duplicate', () => {
    const { a, b } = twoConnections(0);
    let secondDuringLock: unknown;
    const first = a.checkAndRecord('agent-1:memory_write:k', { claimedBy: 'a' }, {
      whileLocked: () => {
        try {
          b.checkAndRecord('agent-1:memory_write:k', { claimedBy: 'b' });
        } catch (error) {
          secondDuringLock = error;
        }
      },
    });
    expect(first).toEqual({ kind: 'new' });
    expect(secondDuringLock).toBeInstanceOf(StoreBusyError);
    expect((secondDuringLock as StoreBusyError).definite).toBe(true); // nothing was written
    expect(b.checkAndRecord('agent-1:memory_write:k', { claimedBy: 'b' })).toMatchObject({
      kind: 'duplicate',
      inProgress: true,
      originalResult: { claimedBy: 'a' },
    });
  });

  it('would let both in if check and insert were separate steps (why the compare-and-set must be one)', () => {
    const { a, b } = twoConnections(0);
    // the naive protocol: each asks first, then writes
    expect(a.check('agent-1:memory_write:k').kind).toBe('new');
    expect(b.check('agent-1:memory_write:k').kind).toBe('new');
    a.record('agent-1:memory_write:k', 'a applied it');
    b.record('agent-1:memory_write:k', 'b applied it too');
    expect(a.peek('agent-1:memory_write:k')?.result).toBe('b applied it too'); // a's effect is forgotten
  });

  it('gives exactly one New per key when two threads race on 500 keys', async () => {
    const { path } = twoConnections(5_000);
    const keys = Array.from({ length: 500 }, (_, i) => `agent-1:memory_write:${i}`);
    const gun = new SharedArrayBuffer(8);
    const flag = new Int32Array(gun);
    // a claims the keys first to last, b last to first: they meet somewhere in the middle and fight there
    const racer = (name: string, order: string[]): Promise<string[]> =>
      new Promise((resolve, reject) => {
        const worker = new Worker(new URL('./race.worker.mjs', import.meta.url), { workerData: { path, keys: order, name, gun } });
        worker.once('message', (m: string[]) => {
          resolve(m);
          void worker.terminate();
        });
        worker.once('error', reject);
      });
    const results = [racer('a', keys), racer('b', [...keys].reverse())];
    while (Atomics.load(flag, 1) < 2) await new Promise((r) => setImmediate(r));
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    const [a = [], reversed = []] = await Promise.all(results);
    const b = [...reversed].reverse();
    const newPerKey = keys.map((_, i) => Number(a[i] === 'new') + Number(b[i] === 'new'));
    expect(newPerKey.every((n) => n === 1)).toBe(true);
    expect(newPerKey.reduce((x, y) => x + y, 0)).toBe(500);
    // How the 500 split between the threads varies from run to run (SQLite's busy handler sleeps a
    // blocked thread while the other runs on); the one-New-per-key verdict may not.
  });
});
