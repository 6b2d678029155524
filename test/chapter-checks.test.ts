/**
 * The chapter's unit checks, one `it` each, in the words of the lesson. Tool-level checks use a real
 * SQLite inventory; runner-level checks run the fixed scenarios and read the trace and the event log.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCS, DEFAULT_ITEMS } from '../src/core/defaults.js';
import { ContractError, isContractError } from '../src/inventory/errors.js';
import { InventoryTool, type ReserveRequest } from '../src/inventory/InventoryTool.js';
import { fingerprint, reserveKey } from '../src/inventory/keys.js';
import { createToolDatabase } from '../src/inventory/schema.js';
import { readSnapshot } from '../src/inventory/snapshot.js';
import { ReferenceRunner } from '../src/runner/ReferenceRunner.js';
import type { Action, RunnerState } from '../src/runner/state.js';
import type { Task } from '../src/scenario/types.js';
import { VirtualClock } from '../src/core/clock.js';
import { SeededRng } from '../src/core/rng.js';
import { camera, events, run } from './support.js';

function inventory() {
  const db = new Database(':memory:');
  createToolDatabase(db, { items: structuredClone(DEFAULT_ITEMS) as never, docs: [...DEFAULT_DOCS] });
  const tool = new InventoryTool({ db, rng: new SeededRng(1), clock: new VirtualClock() });
  const reserve = (args: Partial<ReserveRequest>, taskId = 't') =>
    tool.reserve({ item: 'camera', qty: 1, expected_version: 0, key: 'k', ...args }, { taskId });
  const refusal = (fn: () => unknown): ContractError => {
    try {
      fn();
    } catch (error) {
      if (isContractError(error)) return error;
      throw error;
    }
    throw new Error('expected a ContractError');
  };
  return { db, tool, reserve, refusal, snapshot: () => readSnapshot(db) };
}

const reserveAttempts = (r: Awaited<ReturnType<typeof run>>) => r.log.filter((e) => e.label === 'attempt_started' && e.state.pending?.name === 'reserve');

describe('chapter checks', () => {
  it('duplicate delivery gives one effect and the same receipt', async () => {
    const inv = inventory();
    const first = inv.reserve({});
    const second = inv.reserve({});
    expect(second).toEqual(first);
    expect(inv.snapshot().ledger).toHaveLength(1);
    expect(inv.snapshot().items.find((i) => i.item_id === 'camera')).toMatchObject({ available: 2, version: 1 });

    // and through the network: the request delivered twice, the runner gets the second reply
    const r = await run('happy_path', { extraFaults: [{ kind: 'duplicate_delivery', at: { tool: 'reserve', attempt: 1 } }] });
    const replies = events(r, 'reply').filter((e) => e.by === 'runner' && e.tool === 'reserve');
    expect(replies.map((e) => e.delivered)).toEqual([false, true]);
    expect(replies[0]!.outcome).toEqual(replies[1]!.outcome);
    expect([r.db.ledger.length, camera(r), r.state?.status]).toEqual([1, 2, 'succeeded']);
  });

  it('same key with other args is a conflict and changes nothing', async () => {
    const inv = inventory();
    inv.reserve({ qty: 1 });
    const before = inv.snapshot();
    const error = inv.refusal(() => inv.reserve({ qty: 2 }));
    expect(error.code).toBe('PAYLOAD_CONFLICT');
    expect(inv.snapshot()).toEqual(before);
    expect(before.items.find((i) => i.item_id === 'camera')?.available).toBe(2);
  });

  it('a new key with a stale version is rejected', async () => {
    const inv = inventory();
    inv.reserve({ key: 'first' }); // version 0 → 1
    const before = inv.snapshot();
    const error = inv.refusal(() => inv.reserve({ key: 'second', expected_version: 0 }));
    expect(error.code).toBe('STALE_VERSION');
    expect(error.message).toBe('STALE_VERSION: expected version 0, found 1');
    expect(inv.snapshot()).toEqual(before);
  });

  it('a legitimate retry after the version moved returns the original receipt', async () => {
    const inv = inventory();
    const original = inv.reserve({ key: 'mine' }); // 3 → 2, v0 → v1
    inv.reserve({ key: 'other', expected_version: 1 }, 'other'); // 2 → 1, v1 → v2
    const retry = inv.reserve({ key: 'mine', expected_version: 0 });
    expect(retry).toEqual(original);
    expect(inv.snapshot().items.find((i) => i.item_id === 'camera')).toMatchObject({ available: 1, version: 2 });
    expect((await run('retry_after_version_moved')).passed).toBe(true);
  });

  it('effect and receipt roll back together', async () => {
    const inv = inventory();
    const before = inv.snapshot();
    // Fail inside the transaction, after the stock update and before the receipt is written.
    expect(() =>
      inv.tool.reserve(
        { item: 'camera', qty: 1, expected_version: 0, key: 'k' },
        {
          taskId: 't',
          midTransaction: () => {
            expect(inv.db.prepare("SELECT available FROM items WHERE item_id = 'camera'").pluck().get()).toBe(2); // the update is in
            throw new Error('boom');
          },
        },
      ),
    ).toThrow('boom');
    expect(inv.snapshot()).toEqual(before);
    // and with a real crash: the connection closes mid-transaction, the recovered database has neither
    const r = await run('crash_before_commit', { storage: 'file' });
    const uncommitted = events(r, 'db').find((e) => !e.committed);
    expect(uncommitted?.diff.stock).toEqual([{ item: 'camera', available: [3, 2], version: [0, 1] }]);
    expect(events(r, 'recovered')[0]?.state?.attempts).toBe(1);
    expect([r.db.ledger.length, camera(r)]).toEqual([1, 2]); // one effect in the end: the retry's
  });

  it('insufficient stock and unknown item change nothing', async () => {
    const inv = inventory();
    const before = inv.snapshot();
    expect(inv.refusal(() => inv.reserve({ qty: 5 })).code).toBe('INSUFFICIENT_STOCK');
    expect(inv.refusal(() => inv.reserve({ item: 'drone' })).code).toBe('UNKNOWN_ITEM');
    expect(inv.refusal(() => inv.tool.getStock('drone')).code).toBe('UNKNOWN_ITEM');
    expect(inv.snapshot()).toEqual(before);
    for (const id of ['insufficient_stock', 'unknown_item']) {
      const r = await run(id);
      const refused = events(r, 'reply').filter((e) => !e.outcome.ok);
      expect(refused).toHaveLength(1);
      expect(refused[0]!.changedData).toBe(false);
      expect([r.db.ledger.length, camera(r)]).toEqual([0, 3]);
    }
  });

  it('key derivation is canonical and stable across retries', async () => {
    const digest = createHash('sha256').update('{"item":"camera","qty":1}').digest('hex').slice(0, 32);
    expect(reserveKey('lost_reply', { item: 'camera', qty: 1 })).toBe(`lost_reply:reserve:${digest}`);
    expect(reserveKey('lost_reply', { qty: 1, item: 'camera' } as never)).toBe(`lost_reply:reserve:${digest}`);
    expect(reserveKey('lost_reply', { item: 'camera', qty: 2 })).not.toBe(`lost_reply:reserve:${digest}`);
    const keys = reserveAttempts(await run('lost_reply')).map((e) => e.state.pending?.args.key);
    expect(keys).toEqual([`lost_reply:reserve:${digest}`, `lost_reply:reserve:${digest}`]);
  });

  it('the fingerprint covers expected_version (and not the key)', async () => {
    const base = { item: 'camera', qty: 1, expected_version: 0 };
    expect(fingerprint({ ...base, key: 'a' })).toBe(fingerprint({ ...base, key: 'b' }));
    expect(fingerprint({ ...base, expected_version: 1 })).not.toBe(fingerprint(base));
    const inv = inventory();
    inv.reserve({ key: 'k', expected_version: 0 });
    expect(inv.refusal(() => inv.reserve({ key: 'k', expected_version: 1 })).code).toBe('PAYLOAD_CONFLICT');
  });

  it('a transient read changes nothing', async () => {
    const r = await run('transient_read');
    const failed = events(r, 'reply').find((e) => !e.outcome.ok)!;
    expect(failed.outcome).toMatchObject({ ok: false, error: { class: 'TransientError', message: 'unavailable', certainty: 'definite' } });
    const failedStep = failed.step;
    expect(events(r, 'db').filter((e) => e.step === failedStep)).toEqual([]); // the tool never ran
    expect(r.log.map((e) => e.label)).toContain('transient:unavailable');
  });

  it('lost_reply leaves the effect committed', async () => {
    const r = await run('lost_reply');
    const firstReserveStep = reserveAttempts(r)[0]!;
    const effect = events(r, 'db').find((e) => e.tool === 'reserve')!;
    expect(effect.committed).toBe(true);
    expect(effect.diff.stock).toEqual([{ item: 'camera', available: [3, 2], version: [0, 1] }]);
    const lost = events(r, 'reply').find((e) => !e.outcome.ok)!;
    expect(lost.outcome).toMatchObject({ ok: false, error: { message: 'lost_reply', certainty: 'indefinite' } });
    const afterLoss = r.log.find((e) => e.label === 'transient:lost_reply')!.state;
    expect(afterLoss.observations.reserve).toBeUndefined(); // the runner did not see it …
    expect(afterLoss.pending).toEqual(firstReserveStep.state.pending); // … keeps the same pending action …
    expect(events(r, 'db').filter((e) => e.tool === 'reserve').map((e) => e.ledgerHit?.receiptId)).toEqual([undefined, (r.db.ledger[0]!.result as { reservation_id: string }).reservation_id]); // … and the retry hits the ledger
  });

  it('crash_after_commit recovers pending and calls from the log, with a new runner', async () => {
    let built = 0;
    class Counted extends ReferenceRunner {
      constructor(...args: ConstructorParameters<typeof ReferenceRunner>) {
        super(...args);
        built += 1;
      }
    }
    const r = await run('crash_after_commit', { runner: Counted, storage: 'file' });
    expect(built).toBe(2);
    expect(r.crashes).toBe(1);
    const recovered = events(r, 'recovered')[0]!;
    expect(recovered.seq).toBe(r.log.find((e) => e.label === 'attempt_started' && e.state.pending?.name === 'reserve')!.seq);
    expect(recovered.state).toMatchObject({ status: 'running', calls: 4, attempts: 1, pending: { name: 'reserve' } });
    expect([r.state?.status, r.state?.calls, r.db.ledger.length, camera(r)]).toEqual(['succeeded', 5, 1, 2]);
  });

  it('pending keeps its args and key across attempts', async () => {
    for (const id of ['lost_reply', 'crash_after_commit', 'crash_before_commit', 'retry_after_version_moved']) {
      const pendings = reserveAttempts(await run(id)).map((e) => JSON.stringify(e.state.pending));
      expect(pendings).toHaveLength(2);
      expect(new Set(pendings).size).toBe(1);
    }
  });

  it('the call budget is never exceeded', async () => {
    const r = await run('budget_exhausted');
    expect([r.state?.status, r.state?.calls, r.runnerRequests]).toEqual(['budget_exhausted', 4, 4]);
    expect(events(r, 'request').some((e) => e.action.name === 'reserve')).toBe(false);
    // one more transient than the budget can pay for: stops at the budget, mid-retry
    const tight = await run('budget_exhausted', { extraFaults: [{ kind: 'transient', at: { tool: 'get_stock', attempt: 1 } }] });
    expect([tight.state?.status, tight.state?.calls, tight.runnerRequests, tight.state?.pending?.name]).toEqual(['budget_exhausted', 4, 4, 'get_stock']);
  });

  it('attempts beyond max_retries end in retry_exhausted with pending kept', async () => {
    const reads = await run('transient_read_exhausted');
    expect([reads.state?.status, reads.state?.attempts, reads.state?.pending?.name]).toEqual(['retry_exhausted', 3, 'read_doc']);
    const noRetry = await run('lost_reply_no_retry');
    expect([noRetry.state?.status, noRetry.state?.attempts]).toEqual(['retry_exhausted', 1]);
    expect(noRetry.state?.pending?.args.key).toBe(reserveKey('lost_reply_no_retry', { item: 'camera', qty: 1 }));
    expect([noRetry.db.ledger.length, camera(noRetry)]).toEqual([1, 2]); // … although the effect happened
  });

  it('a ContractError is never retried', async () => {
    for (const [id, code] of [['stale_version', 'STALE_VERSION'], ['insufficient_stock', 'INSUFFICIENT_STOCK'], ['payload_conflict', 'PAYLOAD_CONFLICT']] as const) {
      const r = await run(id);
      const refused = events(r, 'reply').filter((e) => e.by === 'runner' && !e.outcome.ok);
      expect(refused.map((e) => (e.outcome.ok ? '' : e.outcome.error.code))).toEqual([code]);
      const lastRequest = events(r, 'request').filter((e) => e.by === 'runner').at(-1)!;
      expect(lastRequest.attempt).toBe(1);
      expect(r.state?.status).toBe('tool_error');
    }
  });

  it('authorization runs before every attempt', async () => {
    // The task loses its permission for reserve after the first attempt: the retry must not reach the tool.
    class Revoking extends ReferenceRunner {
      protected override authorize(task: Task, action: Action): void {
        const state = (this as unknown as { current?: RunnerState }).current;
        if (action.kind === 'tool' && action.name === 'reserve' && (state?.attempts ?? 0) >= 2) {
          throw new ContractError('NOT_AUTHORIZED', 'permission revoked');
        }
        super.authorize(task, action);
      }
      override step(state: RunnerState): Promise<RunnerState> {
        (this as unknown as { current?: RunnerState }).current = state;
        return super.step(state);
      }
    }
    const r = await run('lost_reply', { runner: Revoking });
    expect(events(r, 'request').filter((e) => e.action.name === 'reserve').map((e) => e.attempt)).toEqual([1]);
    expect(r.state?.status).toBe('tool_error');
    expect(r.state?.result?.error).toBe('NOT_AUTHORIZED: permission revoked');
    expect(r.state?.calls).toBe(5); // the attempt was counted, then refused before it left
    // and the fixed scenario: authorization refuses a reserve of an item the task may not touch
    expect((await run('unauthorized_action')).state?.result?.error).toMatch(/^NOT_AUTHORIZED: item "tripod" is not allowed/);
  });
});
