/**
 * The tools past the chapter, on their own database (docs/spec.md §13–§14): the inventory's purge and its four
 * rules, its history, outbox and compensation; the keyless payment service. Each rule is shown off and on.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { SeededRng } from '../../src/core/rng.js';
import { ContractError } from '../../src/inventory/errors.js';
import { InventoryTool, type ToolLimits } from '../../src/inventory/InventoryTool.js';
import { PaymentService } from '../../src/inventory/PaymentService.js';
import { readToolRows } from '../../src/inventory/rows.js';
import { createToolDatabase } from '../../src/inventory/schema.js';
import { readSnapshot } from '../../src/inventory/snapshot.js';
import type { RetentionRule } from '../../src/scenario/types.js';

const HOUR = 3_600_000;

function world(rules: RetentionRule[] = [], retention: Partial<NonNullable<ToolLimits['retention']>> = {}) {
  const db = new Database(':memory:');
  createToolDatabase(db, { items: { camera: { available: 3, version: 0 } }, docs: [] });
  const clock = new VirtualClock();
  const limits: ToolLimits = { retention: { receipts_ms: HOUR, rules, ...retention }, history: true };
  const tool = new InventoryTool({ db, rng: new SeededRng('tool'), clock, limits });
  const reserve = (args: Record<string, unknown> = {}, taskId = 't') => tool.call({ name: 'reserve', args: { item: 'camera', qty: 1, expected_version: 0, key: 't:reserve:1', ...args } }, { taskId });
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (error) {
      if (error instanceof ContractError) return error.code;
      throw error;
    }
    return 'no refusal';
  };
  return { db, clock, tool, reserve, refusal };
}

describe('the purge', () => {
  it('deletes a receipt once it is as old as the retention, and not a millisecond before', () => {
    const { db, clock, tool, reserve } = world();
    reserve();
    clock.advance(HOUR - 1);
    expect(tool.purge()).toBeNull();
    clock.advance(1);
    const purge = tool.purge()!;
    expect(purge.removed.map((row) => [row.key, row.created_at_ms])).toEqual([['t:reserve:1', 0]]);
    expect(db.prepare('SELECT count(*) FROM ledger').pluck().get()).toBe(0);
  });

  it('never touches the history: the effect stays, with its key and fingerprint', () => {
    const { clock, tool, reserve, db } = world();
    reserve();
    clock.advance(2 * HOUR);
    tool.purge();
    expect(readSnapshot(db, true).history?.map((row) => [row.key, row.delta, row.at_ms])).toEqual([['t:reserve:1', -1, 0]]);
  });

  it('does nothing for the chapter\'s tool, which keeps receipts for ever and leaves the limits\' tables empty', () => {
    const db = new Database(':memory:');
    createToolDatabase(db, { items: { camera: { available: 3, version: 0 } }, docs: [] });
    const tool = new InventoryTool({ db, rng: new SeededRng('tool'), clock: new VirtualClock(1e12) });
    tool.call({ name: 'reserve', args: { item: 'camera', qty: 1, expected_version: 0, key: 'k', outbox: { charge: { ref: 'r', amount: 1 } } } }, { taskId: 't' });
    expect(tool.purge()).toBeNull();
    expect(() => tool.call({ name: 'close_task', args: {} }, { taskId: 't' })).toThrow(/keeps no finished tasks/);
    const rows = readToolRows(db, true);
    expect([rows.history, rows.outbox, rows.finished_tasks, rows.tombstones, rows.charges]).toEqual([[], [], [], [], []]);
    expect(readSnapshot(db)).toEqual({ items: [{ item_id: 'camera', available: 2, version: 1 }], ledger: [expect.objectContaining({ key: 'k' })] });
  });
});

describe('rule 1, deadline', () => {
  it('off: a request after its deadline runs', () => {
    const { clock, reserve } = world([], { requests_ms: HOUR });
    clock.advance(2 * HOUR);
    expect(reserve({ not_after_ms: HOUR })).toMatchObject({ qty: 1 });
  });

  it('on: refused EXPIRED after it, changing nothing; a write without one, or with one too far away, is refused', () => {
    const { clock, reserve, refusal, db } = world(['deadline'], { requests_ms: HOUR });
    expect(refusal(() => reserve())).toBe('INVALID_ACTION');
    expect(refusal(() => reserve({ not_after_ms: HOUR + 1 }))).toBe('INVALID_ACTION');
    clock.advance(HOUR + 1);
    expect(refusal(() => reserve({ not_after_ms: HOUR }))).toBe('EXPIRED');
    expect(readSnapshot(db, true).items[0]).toEqual({ item_id: 'camera', available: 3, version: 0 });
  });

  it('on: a retry after the deadline whose receipt is kept still gets its receipt (the ledger first)', () => {
    const { clock, reserve } = world(['deadline'], { requests_ms: HOUR, receipts_ms: 3 * HOUR });
    const first = reserve({ not_after_ms: HOUR });
    clock.advance(2 * HOUR);
    expect(reserve({ not_after_ms: HOUR })).toEqual(first);
  });
});

describe('rule 2, receipts_outlive_requests', () => {
  it('off: the purge keeps receipts_ms; on: at least requests_ms', () => {
    const off = world(['deadline'], { receipts_ms: 10, requests_ms: HOUR });
    const on = world(['deadline', 'receipts_outlive_requests'], { receipts_ms: 10, requests_ms: HOUR });
    for (const w of [off, on]) {
      w.reserve({ not_after_ms: HOUR });
      w.clock.advance(HOUR - 1);
    }
    expect(off.tool.purge()?.keepMs).toBe(10);
    expect(on.tool.purge()).toBeNull();
    on.clock.advance(1);
    expect(on.tool.purge()?.keepMs).toBe(HOUR);
  });
});

describe('rule 3, refuse_purged_keys', () => {
  it('off: a late duplicate of a purged key is judged as new (here the version refuses it, and says nothing of the effect)', () => {
    const { clock, tool, reserve, refusal } = world();
    reserve();
    clock.advance(HOUR);
    tool.purge();
    expect(refusal(() => reserve())).toBe('STALE_VERSION');
  });

  it('on: the purge leaves a tombstone; the same key is refused RECEIPT_PURGED before anything else is read', () => {
    const { clock, tool, reserve, refusal, db } = world(['refuse_purged_keys']);
    reserve();
    clock.advance(HOUR);
    expect(tool.purge()?.tombstones).toBe(true);
    expect(readToolRows(db, true).tombstones).toHaveLength(1);
    expect(refusal(() => reserve())).toBe('RECEIPT_PURGED');
    expect(refusal(() => reserve({ expected_version: 1 }))).toBe('RECEIPT_PURGED');
  });
});

describe('rule 4, finished_tasks', () => {
  it('close_task records the task, a table no purge touches; off, a later write of it runs; on, it is refused TASK_FINISHED', () => {
    for (const [rules, outcome] of [[[], 'runs'], [['finished_tasks'], 'TASK_FINISHED']] as const) {
      const { clock, tool, reserve, refusal, db } = world([...rules]);
      reserve();
      expect(tool.call({ name: 'close_task', args: {} }, { taskId: 't' })).toEqual({ task: 't', finished_at_ms: 0 });
      clock.advance(2 * HOUR);
      tool.purge();
      expect(tool.call({ name: 'close_task', args: {} }, { taskId: 't' })).toEqual({ task: 't', finished_at_ms: 0 });
      const second = refusal(() => reserve({ expected_version: 1 }));
      expect(second === 'no refusal' ? 'runs' : second).toBe(outcome);
      // another task is not finished: its writes run
      expect(refusal(() => reserve({ expected_version: readSnapshot(db, true).items[0]!.version, key: 'other:reserve:1' }, 'other'))).toBe('no refusal');
    }
  });
});

describe('the outbox', () => {
  it('is written in the reservation\'s transaction: a crash inside it rolls back the stock, the receipt and the message together', () => {
    const { db, reserve } = world();
    const outbox = { charge: { ref: 'order-1', amount: 120 } };
    expect(() => reserve({ outbox }, 't')).not.toThrow();
    const rows = readToolRows(db, true);
    expect(rows.outbox!.map((row) => row.slice(3, 6))).toEqual([['t', 'order-1', 120]]);
    const fresh = world();
    expect(() =>
      fresh.tool.reserve({ item: 'camera', qty: 1, expected_version: 0, key: 'k', outbox }, {
        taskId: 't',
        midTransaction: () => {
          throw new Error('crash');
        },
      }),
    ).toThrow('crash');
    expect([readToolRows(fresh.db, true).ledger, readToolRows(fresh.db, true).outbox, readSnapshot(fresh.db, true).items[0]!.available]).toEqual([[], [], 3]);
  });

  it('refuses a message that is not a charge', () => {
    const { reserve, refusal } = world();
    expect(refusal(() => reserve({ outbox: { mail: { to: 'x' } } }))).toBe('INVALID_ACTION');
  });
});

describe('a compensation (release)', () => {
  it('puts the stock back under its own key, in the ledger and the history; a retry meets its receipt', () => {
    const { tool, reserve, db } = world();
    const receipt = reserve() as { reservation_id: string };
    const release = () => tool.call({ name: 'release', args: { item: 'camera', qty: 1, of: receipt.reservation_id, key: 't:release:1' } }, { taskId: 't' });
    const first = release();
    expect(release()).toEqual(first);
    expect(readSnapshot(db, true).items[0]).toEqual({ item_id: 'camera', available: 3, version: 2 });
    expect(readSnapshot(db, true).ledger.map((row) => row.qty)).toEqual([1, -1]);
    expect(readSnapshot(db, true).history?.map((row) => row.delta)).toEqual([-1, 1]);
  });

  it('is refused NOTHING_TO_RELEASE for a reservation the task does not hold', () => {
    const { tool, refusal } = world();
    expect(refusal(() => tool.call({ name: 'release', args: { item: 'camera', qty: 1, of: 'res_000000', key: 't:release:1' } }, { taskId: 't' }))).toBe('NOTHING_TO_RELEASE');
  });
});

describe('the keyless payment service', () => {
  const service = (balance: number) => {
    const db = new Database(':memory:');
    createToolDatabase(db, { items: {}, docs: [] });
    return new PaymentService({ db, rng: new SeededRng('tool'), clock: new VirtualClock(), balance });
  };

  it('executes every charge it receives: the same reference twice is two charges', () => {
    const payments = service(500);
    const charge = () => payments.call({ name: 'charge', args: { ref: 'order-1', amount: 120 } }, { taskId: 't' });
    const [a, b] = [charge(), charge()] as Array<{ status: string; charge_id: string }>;
    expect([a!.status, b!.status]).toEqual(['charged', 'charged']);
    expect(a!.charge_id).not.toBe(b!.charge_id);
    expect(payments.status('order-1')).toMatchObject({ ref: 'order-1', found: true, charges: 2, charge_id: a!.charge_id });
  });

  it('answers a status query by reference only, and declines a charge above the balance left, changing nothing', () => {
    const payments = service(100);
    expect(payments.status('order-1')).toEqual({ ref: 'order-1', charges: 0, found: false });
    expect(payments.call({ name: 'charge', args: { ref: 'order-1', amount: 120 } }, { taskId: 't' })).toEqual({ status: 'declined', ref: 'order-1', amount: 120, reason: 'insufficient funds: 100 left' });
    expect(payments.status('order-1').found).toBe(false);
  });

  it('rolls a charge back when the process dies inside its transaction', () => {
    const payments = service(500);
    expect(() => payments.charge('order-1', 120, { taskId: 't', midTransaction: () => { throw new Error('crash'); } })).toThrow('crash');
    expect(payments.status('order-1').found).toBe(false);
  });
});
