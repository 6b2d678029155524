import { describe, expect, it } from 'vitest';
import { DeadLetterQueue } from '../../../src/durability/dlq/DeadLetterQueue.js';
import { isDurabilityError } from '../../../src/durability/errors.js';
import { crashAndReopen } from '../../../src/core/storage.js';
import { bench, HOUR, ofType } from '../helpers.js';

const LAST_ERROR = { code: 'SERVICE_UNAVAILABLE', message: 'wiki answered 503', definite: true };
const OPERATION = { operation: { agentId: 'agent-1', operationType: 'wiki_write', content: { page: 'Home', text: 'hello' } }, idempotencyKey: 'agent-1:wiki_write:abc' };

function queue() {
  const b = bench();
  const dlq = new DeadLetterQueue({ db: b.db, clock: b.clock, events: b.sink });
  const put = (agentId = 'agent-1') => dlq.enqueue({ agentId, operationType: 'wiki_write', originalOperation: OPERATION, attempts: 3, lastError: LAST_ERROR });
  return { ...b, dlq, put };
}

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (error) {
    return isDurabilityError(error) ? error.code : 'not a durability error';
  }
  return undefined;
}

describe('enqueue: the whole operation is kept, pending, for 24 h', () => {
  it('stores the complete original operation, the attempts, the last error and the times', () => {
    const { dlq, put, clock, events } = queue();
    clock.advance(4_000);
    const record = put();
    expect(record).toEqual({
      dlqId: 'dlq-000001',
      agentId: 'agent-1',
      operationType: 'wiki_write',
      originalOperation: OPERATION,
      attempts: 3,
      retryCount: 2,
      lastError: LAST_ERROR,
      failedAtMs: 4_000,
      expiresAtMs: 4_000 + 24 * HOUR,
      status: 'pending',
    });
    expect(dlq.get('dlq-000001')).toEqual(record);
    expect(ofType(events, 'dlq.enqueued')).toEqual([{ type: 'dlq.enqueued', atMs: 4_000, record }]);
  });

  it('uses a given ttl, and refuses a ttl of 0', () => {
    const { dlq } = queue();
    const input = { agentId: 'a', operationType: 'wiki_write', originalOperation: {}, attempts: 1, lastError: LAST_ERROR };
    expect(dlq.enqueue({ ...input, ttlSeconds: 60 }).expiresAtMs).toBe(60_000);
    expect(codeOf(() => dlq.enqueue({ ...input, ttlSeconds: 0 }))).toBe('DLQ_INVALID_TTL');
  });

  it('survives a crash', () => {
    const { put, db, clock } = queue();
    put();
    const again = new DeadLetterQueue({ db: crashAndReopen(db), clock });
    expect(again.listPending().map((r) => [r.dlqId, r.status])).toEqual([['dlq-000001', 'pending']]);
  });
});

describe('listPending: ordered by failed_at, then by id (ours)', () => {
  it('lists only pending records, oldest failure first, ties in enqueue order', () => {
    const { dlq, put, clock } = queue();
    put('a');
    put('b');
    clock.advance(10);
    put('c');
    put('d');
    dlq.abandon('dlq-000002');
    expect(dlq.listPending().map((r) => `${r.dlqId}@${r.failedAtMs}`)).toEqual(['dlq-000001@0', 'dlq-000003@10', 'dlq-000004@10']);
  });
});

describe('status: only pending may move to replayed or abandoned (ours)', () => {
  it('moves pending → replayed once; a second replay or an abandon afterwards is refused', () => {
    const { dlq, put, events } = queue();
    put();
    expect(dlq.markReplayed('dlq-000001').status).toBe('replayed');
    expect(codeOf(() => dlq.markReplayed('dlq-000001'))).toBe('DLQ_INVALID_TRANSITION');
    expect(codeOf(() => dlq.abandon('dlq-000001'))).toBe('DLQ_INVALID_TRANSITION');
    expect(dlq.get('dlq-000001')?.status).toBe('replayed');
    expect(ofType(events, 'dlq.status')).toEqual([{ type: 'dlq.status', atMs: 0, dlqId: 'dlq-000001', from: 'pending', to: 'replayed' }]);
  });

  it('moves pending → abandoned; an abandoned record cannot be replayed', () => {
    const { dlq, put } = queue();
    put();
    expect(dlq.abandon('dlq-000001').status).toBe('abandoned');
    expect(codeOf(() => dlq.markReplayed('dlq-000001'))).toBe('DLQ_INVALID_TRANSITION');
  });

  it('answers NotFound for an id never enqueued', () => {
    expect(codeOf(() => queue().dlq.abandon('dlq-000042'))).toBe('DLQ_NOT_FOUND');
  });
});

describe('cleanupExpired: removes records whose TTL has passed', () => {
  it('keeps a record 1 ms before expires_at and removes it exactly at it', () => {
    const { dlq, put, clock } = queue();
    put();
    clock.advanceTo(24 * HOUR - 1);
    expect(dlq.cleanupExpired()).toBe(0);
    clock.advance(1);
    expect(dlq.cleanupExpired()).toBe(1);
    expect(dlq.get('dlq-000001')).toBeUndefined();
  });
});

describe('an expired record is never handed out or moved, and is purged on access (no timers)', () => {
  it('get answers undefined at expires_at, and that access purges the row with a dlq.cleanup event', () => {
    const { dlq, put, clock, events } = queue();
    put();
    clock.advanceTo(24 * HOUR - 1);
    expect(dlq.get('dlq-000001')?.status).toBe('pending');
    clock.advance(1);
    expect(dlq.get('dlq-000001')).toBeUndefined();
    expect(ofType(events, 'dlq.cleanup')).toEqual([{ type: 'dlq.cleanup', atMs: 24 * HOUR, removed: 1 }]);
    expect(dlq.list()).toEqual([]);
  });

  it('listPending leaves out an expired record and keeps the live one', () => {
    const { dlq, put, clock } = queue();
    dlq.enqueue({ agentId: 'a', operationType: 'wiki_write', originalOperation: {}, attempts: 1, lastError: LAST_ERROR, ttlSeconds: 60 });
    put('b');
    clock.advanceTo(60_000);
    expect(dlq.listPending().map((r) => r.dlqId)).toEqual(['dlq-000002']);
  });

  it('refuses to mark an expired record replayed, or to abandon one, with DLQ_EXPIRED; 1 ms earlier it may move', () => {
    const { dlq, clock, events } = queue();
    const put = (ttlSeconds: number) => dlq.enqueue({ agentId: 'a', operationType: 'wiki_write', originalOperation: {}, attempts: 3, lastError: LAST_ERROR, ttlSeconds });
    put(60); // dlq-000001
    put(60); // dlq-000002
    put(120); // dlq-000003
    clock.advanceTo(60_000 - 1);
    expect(dlq.abandon('dlq-000002').status).toBe('abandoned');
    clock.advance(1);
    expect(codeOf(() => dlq.markReplayed('dlq-000001'))).toBe('DLQ_EXPIRED');
    clock.advanceTo(120_000);
    expect(codeOf(() => dlq.abandon('dlq-000003'))).toBe('DLQ_EXPIRED');
    expect(ofType(events, 'dlq.status').map((e) => `${e.dlqId} ${e.to}`)).toEqual(['dlq-000002 abandoned']);
    // each refusal purged what had expired by then; a later access finds nothing at all
    expect(ofType(events, 'dlq.cleanup')).toEqual([
      { type: 'dlq.cleanup', atMs: 60_000, removed: 2 },
      { type: 'dlq.cleanup', atMs: 120_000, removed: 1 },
    ]);
    expect(codeOf(() => dlq.abandon('dlq-000003'))).toBe('DLQ_NOT_FOUND');
  });

  it('emits no dlq.cleanup on an access that purges nothing', () => {
    const { dlq, put, events } = queue();
    put();
    dlq.get('dlq-000001');
    dlq.listPending();
    expect(ofType(events, 'dlq.cleanup')).toEqual([]);
  });
});
