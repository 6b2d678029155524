import { describe, expect, it } from 'vitest';
import { DurabilityLayer, type CallContext, type DurableOperation } from '../../src/durability/DurabilityLayer.js';
import { applyConfigOverrides } from '../../src/durability/config/load.js';
import { defaultDurabilityConfig } from '../../src/durability/config/defaults.js';
import { fail, succeed, type AttemptResult } from '../../src/durability/retry/RetryEngine.js';
import { KeyPartError, isDurabilityError } from '../../src/durability/errors.js';
import { crashAndReopen } from '../../src/core/storage.js';
import { SeededRng } from '../../src/core/rng.js';
import { bench, ofType } from './helpers.js';

const NOTE: DurableOperation = { agentId: 'agent-1', operationType: 'memory_write', dependency: 'memory_service', content: { note: 'buy milk' } };

function layer(overrides: unknown = {}) {
  const b = bench();
  const config = applyConfigOverrides(defaultDurabilityConfig(), overrides);
  return { ...b, layer: new DurabilityLayer({ db: b.db, clock: b.clock, rng: new SeededRng(42), config, events: b.sink }) };
}

/**
 * A dependency that answers from a script (one entry per call that reaches it; then success) and keeps
 * its own ledger by idempotency key: a key it has applied is answered from the ledger, not applied again.
 */
function dependency(script: ('ok' | 'lost_reply' | string)[] = []) {
  const ledger = new Map<string, string>();
  const calls: CallContext[] = [];
  let effects = 0;
  const call = (ctx: CallContext): AttemptResult<string> => {
    calls.push(ctx);
    const step = script[calls.length - 1] ?? 'ok';
    if (step !== 'ok' && step !== 'lost_reply') return fail(step, `${step} from ${ctx.operation.dependency}`);
    let receipt = ledger.get(ctx.key);
    if (receipt === undefined) {
      effects += 1;
      receipt = `r-${effects}`;
      ledger.set(ctx.key, receipt);
    }
    return step === 'lost_reply' ? fail('NETWORK_TIMEOUT', 'the reply was lost', false) : succeed(receipt);
  };
  return { call, calls, effects: () => effects };
}

describe('1. a duplicate gets the original result and never reaches the dependency', () => {
  it('answers the second identical write from the idempotency record', () => {
    const { layer: l } = layer();
    const dep = dependency();
    expect(l.execute(NOTE, dep.call)).toMatchObject({ kind: 'succeeded', result: 'r-1', attempts: 1 });
    expect(l.execute({ ...NOTE, content: { note: 'buy milk' } }, dep.call)).toEqual({
      kind: 'duplicate',
      key: l.keyOf(NOTE),
      originalResult: 'r-1',
      inProgress: false,
    });
    expect(dep.calls).toHaveLength(1);
  });
});

describe('2. an open circuit fails fast: nothing reaches the dependency, and the key is freed', () => {
  it('refuses with CircuitOpen, counts the refusal, and releases the placeholder', () => {
    const { layer: l, events } = layer();
    for (let i = 0; i < 10; i += 1) l.breakers.afterCall('memory_service', false);
    const dep = dependency();
    const outcome = l.execute(NOTE, dep.call);
    expect(outcome.kind).toBe('circuit_open');
    if (outcome.kind === 'circuit_open') expect(outcome.error).toMatchObject({ code: 'CIRCUIT_OPEN', dependency: 'memory_service', definite: true });
    expect(dep.calls).toHaveLength(0);
    expect(ofType(events, 'breaker.rejected')).toHaveLength(1);
    expect(l.idempotency.peek(l.keyOf(NOTE))).toBeUndefined();
  });
});

describe('3–4. a transient failure is retried; success is recorded, reported and checkpointed', () => {
  it('retries after a backoff, then records the result, closes the breaker’s books and saves the next phase', () => {
    const { layer: l, clock, events } = layer();
    const dep = dependency(['SERVICE_UNAVAILABLE']);
    const outcome = l.execute({ ...NOTE, checkpoint: { taskId: 'task-1', phase: 'noted' } }, dep.call);
    expect(outcome).toMatchObject({ kind: 'succeeded', result: 'r-1', attempts: 2 });
    if (outcome.kind !== 'succeeded') return;
    expect(outcome.delaysMs).toHaveLength(1);
    expect(clock.nowMs()).toBe(outcome.delaysMs[0]);
    expect(dep.calls.map((c) => [c.attempt, c.key])).toEqual([
      [1, outcome.key],
      [2, outcome.key],
    ]);
    expect(l.idempotency.peek(outcome.key)).toMatchObject({ status: 'done', result: 'r-1' });
    expect(l.breakers.snapshot('memory_service').window).toEqual([false]);
    expect(outcome.checkpoint).toMatchObject({ taskId: 'task-1', agentId: 'agent-1', phase: 'noted', state: { key: outcome.key, result: 'r-1' } });
    // the order of PILLARS §6: key, (breaker admits), attempts with a backoff, breaker result, record, checkpoint
    expect(events.map((e) => e.type).filter((t) => t !== 'idempotency.cleanup')).toEqual([
      'idempotency.new',
      'retry.attempt',
      'retry.backoff',
      'retry.attempt',
      'breaker.result',
      'idempotency.recorded',
      'checkpoint.saved',
    ]);
  });
});

describe('5. exhausted retries go to the DLQ; a non-retryable failure does not', () => {
  it('enqueues the whole operation with its key, reports a failure to the breaker, and releases the key', () => {
    const { layer: l, events } = layer();
    const dep = dependency(['SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE']);
    const outcome = l.execute(NOTE, dep.call);
    expect(outcome).toMatchObject({ kind: 'dead_lettered', attempts: 5, finalError: { code: 'SERVICE_UNAVAILABLE' } });
    expect(l.dlq.listPending()).toMatchObject([
      { dlqId: 'dlq-000001', attempts: 5, retryCount: 4, originalOperation: { operation: NOTE, idempotencyKey: l.keyOf(NOTE) }, status: 'pending' },
    ]);
    expect(l.breakers.snapshot('memory_service').window).toEqual([true]);
    expect(l.idempotency.peek(l.keyOf(NOTE))).toBeUndefined();
    expect(events.map((e) => e.type).slice(-4)).toEqual(['retry.gave_up', 'dlq.enqueued', 'breaker.result', 'idempotency.released']);
  });

  it('stops a non-retryable failure after one attempt: no DLQ record, breaker told, key released', () => {
    const { layer: l, events } = layer();
    const dep = dependency(['PERMISSION_DENIED']);
    expect(l.execute(NOTE, dep.call)).toMatchObject({ kind: 'non_retryable', attempts: 1, delaysMs: [], finalError: { code: 'PERMISSION_DENIED' } });
    expect(l.dlq.list()).toEqual([]);
    expect(l.breakers.snapshot('memory_service').window).toEqual([true]);
    expect(events.map((e) => e.type).slice(-2)).toEqual(['breaker.result', 'idempotency.released']);
    // released: once the permission is fixed, the same write goes through instead of being a "duplicate"
    expect(l.execute(NOTE, dep.call)).toMatchObject({ kind: 'succeeded' });
  });
});

describe('replay: through the layer, with the original key, so one effect (ours)', () => {
  it('after a lost reply and exhaustion, a replay reuses the key and the dependency applies nothing twice', () => {
    const { layer: l, clock } = layer();
    const dep = dependency(['lost_reply', 'SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE']);
    const wiki: DurableOperation = { agentId: 'agent-1', operationType: 'wiki_write', dependency: 'wiki_service', content: { page: 'Home' } };
    const first = l.execute(wiki, dep.call);
    expect(first.kind).toBe('dead_lettered');
    expect(dep.effects()).toBe(1); // the lost reply applied it
    clock.advance(60_000);
    const { outcome, record } = l.replay('dlq-000001', dep.call);
    expect(outcome).toMatchObject({ kind: 'succeeded', result: 'r-1' });
    expect(record?.status).toBe('replayed');
    expect(dep.calls.at(-1)).toMatchObject({ key: first.key, replayOf: 'dlq-000001' });
    expect(dep.effects()).toBe(1);
  });

  it('leaves the record pending, and makes no second record, when the replay fails again', () => {
    const { layer: l } = layer();
    const dep = dependency(Array(6).fill('SERVICE_UNAVAILABLE'));
    const wiki: DurableOperation = { agentId: 'agent-1', operationType: 'wiki_write', dependency: 'wiki_service', content: { page: 'Home' } };
    l.execute(wiki, dep.call);
    const { outcome, record } = l.replay('dlq-000001', dep.call);
    expect(outcome.kind).toBe('dead_lettered');
    expect(record?.status).toBe('pending');
    expect(l.dlq.list()).toHaveLength(1);
  });

  it('refuses to replay a record that is not pending, before calling anything', () => {
    const { layer: l } = layer();
    const dep = dependency(Array(3).fill('SERVICE_UNAVAILABLE'));
    const wiki: DurableOperation = { agentId: 'agent-1', operationType: 'wiki_write', dependency: 'wiki_service', content: {} };
    l.execute(wiki, dep.call);
    l.dlq.abandon('dlq-000001');
    const before = dep.calls.length;
    expect(() => l.replay('dlq-000001', dep.call)).toThrow(/only a pending record may be replayed/);
    expect(dep.calls).toHaveLength(before);
  });
});

describe('replay of an expired DLQ record', () => {
  const wiki: DurableOperation = { agentId: 'agent-1', operationType: 'wiki_write', dependency: 'wiki_service', content: { page: 'Home' } };

  it('refuses a record whose TTL has passed with DLQ_EXPIRED, before calling anything', () => {
    const { layer: l, clock } = layer({ dlq: { default_ttl_seconds: 60 } });
    const dep = dependency(Array(3).fill('SERVICE_UNAVAILABLE'));
    const first = l.execute(wiki, dep.call);
    if (first.kind !== 'dead_lettered' || !first.dlqRecord) throw new Error('expected a DLQ record');
    clock.advanceTo(first.dlqRecord.expiresAtMs);
    let caught: unknown;
    try {
      l.replay('dlq-000001', dep.call);
    } catch (error) {
      caught = error;
    }
    expect(isDurabilityError(caught, 'DLQ_EXPIRED')).toBe(true);
    expect(dep.calls).toHaveLength(3);
    expect(l.dlq.list()).toEqual([]);
  });

  it('does not mark replayed a record whose TTL passed while the replay was backing off; the outcome still says it succeeded', () => {
    const { layer: l, events } = layer({ dlq: { default_ttl_seconds: 2 } });
    // 3 failures: dead-lettered; the replay then fails twice (backoffs of 1 s and 2 s, plus jitter) and succeeds
    const dep = dependency(Array(5).fill('SERVICE_UNAVAILABLE'));
    l.execute(wiki, dep.call);
    const { outcome, record } = l.replay('dlq-000001', dep.call);
    expect(outcome).toMatchObject({ kind: 'succeeded', result: 'r-1', attempts: 3 });
    expect(record).toBeUndefined();
    expect(ofType(events, 'dlq.status')).toEqual([]);
    expect(ofType(events, 'dlq.cleanup')).toMatchObject([{ removed: 1 }]);
  });
});

describe('keys the layer cannot use', () => {
  it('refuses an agent_id with ":" before anything runs', () => {
    const { layer: l } = layer();
    const dep = dependency();
    expect(() => l.execute({ ...NOTE, agentId: 'team:a' }, dep.call)).toThrow(KeyPartError);
    expect(dep.calls).toHaveLength(0);
  });

  it('runs an operation whose key is too long without dedup, and warns', () => {
    const { layer: l, events } = layer();
    const dep = dependency();
    const long = { ...NOTE, agentId: 'a'.repeat(250) };
    expect(l.execute(long, dep.call).kind).toBe('succeeded');
    expect(l.execute(long, dep.call).kind).toBe('succeeded');
    expect(dep.calls).toHaveLength(2);
    expect(ofType(events, 'idempotency.skipped')[0]).toMatchObject({ reason: 'key_too_long', maxKeyLength: 256 });
  });
});

describe('a crash in the middle of an operation', () => {
  it('leaves the key in progress: the same write after recovery is told Duplicate (in progress), not run twice', () => {
    const { layer: l, db, clock } = layer();
    let crashedDb = db;
    const dep = (ctx: CallContext): AttemptResult<string> => {
      void ctx;
      crashedDb = crashAndReopen(db); // the process dies while the dependency works
      throw new Error('crash');
    };
    expect(() => l.execute(NOTE, dep)).toThrow('crash');
    const again = new DurabilityLayer({ db: crashedDb, clock, rng: new SeededRng(42) });
    const outcome = again.execute(NOTE, dependency().call);
    expect(outcome).toMatchObject({ kind: 'duplicate', inProgress: true });
    expect(isDurabilityError(outcome)).toBe(false);
  });

  it('…until the in-progress lease ends: then the same write takes the key over and runs, once', () => {
    const { layer: l, db, clock, events } = layer();
    let crashedDb = db;
    const dies = (): AttemptResult<string> => {
      crashedDb = crashAndReopen(db);
      throw new Error('crash');
    };
    expect(() => l.execute(NOTE, dies)).toThrow('crash');
    const again = new DurabilityLayer({ db: crashedDb, clock, rng: new SeededRng(42), events: (e) => events.push(e) });
    const dep = dependency();
    clock.advanceTo(900_000 - 1);
    expect(again.execute(NOTE, dep.call)).toMatchObject({ kind: 'duplicate', inProgress: true });
    clock.advance(1);
    expect(again.execute(NOTE, dep.call)).toMatchObject({ kind: 'succeeded', result: 'r-1' });
    expect(ofType(events, 'idempotency.new').at(-1)).toMatchObject({ leaseExpired: { placeholderAtMs: 0, expiredAtMs: 900_000 } });
    expect(again.execute(NOTE, dep.call)).toMatchObject({ kind: 'duplicate', inProgress: false, originalResult: 'r-1' });
    expect(dep.effects()).toBe(1);
  });
});
