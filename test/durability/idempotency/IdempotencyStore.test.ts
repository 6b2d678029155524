import { describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../../src/durability/idempotency/IdempotencyStore.js';
import { idempotencyKey } from '../../../src/core/key.js';
import { crashAndReopen } from '../../../src/core/storage.js';
import { DEFAULT_DURABILITY_CONFIG } from '../../../src/durability/config/defaults.js';
import { bench, HOUR, ofType, SECOND } from '../helpers.js';

const KEY = idempotencyKey('agent-1', 'memory_write', { note: 'buy milk' });

function store(overrides: Partial<typeof DEFAULT_DURABILITY_CONFIG.idempotency> = {}) {
  const b = bench();
  const s = new IdempotencyStore({ db: b.db, clock: b.clock, config: { ...DEFAULT_DURABILITY_CONFIG.idempotency, ...overrides }, events: b.sink });
  return { ...b, store: s };
}

describe('check: New until a result is recorded, then Duplicate with the original result', () => {
  it('answers New for a key never seen', () => {
    const { store: s } = store();
    expect(s.check(KEY)).toEqual({ kind: 'new' });
  });

  it('answers Duplicate with the original result, its timestamp and when the window ends', () => {
    const { store: s, clock } = store();
    clock.advance(1_000);
    s.record(KEY, { receipt: 'r-1' });
    clock.advance(60 * SECOND);
    expect(s.check(KEY)).toEqual({
      kind: 'duplicate',
      originalResult: { receipt: 'r-1' },
      originalTimestampMs: 1_000,
      dedupWindowExpiresAtMs: 1_000 + HOUR,
      inProgress: false,
    });
  });
});

describe('the dedup window: live while the age is strictly below dedup_window_seconds', () => {
  it('is a Duplicate 1 ms before the window ends and New exactly at its end', () => {
    const { store: s, clock } = store();
    clock.advance(5_000);
    s.record(KEY, 'r-1');
    clock.advanceTo(5_000 + HOUR - 1);
    expect(s.check(KEY).kind).toBe('duplicate');
    clock.advance(1);
    expect(s.check(KEY).kind).toBe('new');
  });

  it('restarts the window when record() replaces a result', () => {
    const { store: s, clock } = store();
    s.record(KEY, 'r-1');
    clock.advanceTo(HOUR / 2);
    s.record(KEY, 'r-2');
    clock.advanceTo(HOUR);
    expect(s.check(KEY)).toMatchObject({ kind: 'duplicate', originalResult: 'r-2', originalTimestampMs: HOUR / 2 });
    clock.advanceTo(HOUR / 2 + HOUR);
    expect(s.check(KEY).kind).toBe('new');
  });
});

describe('checkAndRecord: one atomic compare-and-set', () => {
  it('stores the placeholder and answers New, then answers Duplicate (in progress) with that placeholder', () => {
    const { store: s, events } = store();
    expect(s.checkAndRecord(KEY, { status: 'in_progress' })).toEqual({ kind: 'new' });
    expect(s.peek(KEY)).toMatchObject({ status: 'in_progress', result: { status: 'in_progress' } });
    expect(s.checkAndRecord(KEY, { status: 'in_progress' })).toMatchObject({
      kind: 'duplicate',
      inProgress: true,
      originalResult: { status: 'in_progress' },
    });
    expect(ofType(events, 'idempotency.new')).toHaveLength(1);
    expect(ofType(events, 'idempotency.duplicate')).toHaveLength(1);
  });

  it('answers New again for an expired record and overwrites it with the new placeholder', () => {
    const { store: s, clock } = store();
    s.record(KEY, 'old');
    clock.advanceTo(HOUR);
    expect(s.checkAndRecord(KEY, 'fresh').kind).toBe('new');
    expect(s.peek(KEY)).toMatchObject({ status: 'in_progress', result: 'fresh', recordedAtMs: HOUR });
  });
});

describe('the in-progress lease: a placeholder left by a crash blocks its key for in_progress_expiration_seconds, not the whole window', () => {
  const LEASE = 900 * SECOND; // the default: AWS Lambda's longest run, the bound of Powertools' in_progress_expiration

  it('answers Duplicate (in progress) until the lease ends, then the next checkAndRecord takes the key over, and says so', () => {
    const { store: s, clock, events } = store();
    clock.advance(2_000);
    expect(s.checkAndRecord(KEY, 'first caller')).toEqual({ kind: 'new' }); // …and that caller crashes
    clock.advanceTo(2_000 + LEASE - 1);
    expect(s.checkAndRecord(KEY, 'second caller')).toEqual({
      kind: 'duplicate',
      originalResult: 'first caller',
      originalTimestampMs: 2_000,
      dedupWindowExpiresAtMs: 2_000 + HOUR,
      inProgress: true,
      inProgressExpiresAtMs: 2_000 + LEASE,
    });
    clock.advance(1);
    expect(s.checkAndRecord(KEY, 'third caller')).toEqual({ kind: 'new', leaseExpired: { placeholderAtMs: 2_000, expiredAtMs: 2_000 + LEASE } });
    expect(s.peek(KEY)).toEqual({ key: KEY, status: 'in_progress', result: 'third caller', recordedAtMs: 2_000 + LEASE });
    expect(ofType(events, 'idempotency.new').at(-1)).toEqual({
      type: 'idempotency.new',
      atMs: 2_000 + LEASE,
      key: KEY,
      leaseExpired: { placeholderAtMs: 2_000, expiredAtMs: 2_000 + LEASE },
    });
    // the new holder gets a lease of its own
    expect(s.checkAndRecord(KEY, 'fourth caller')).toMatchObject({ kind: 'duplicate', originalResult: 'third caller', inProgressExpiresAtMs: 2_000 + 2 * LEASE });
  });

  it('check() answers New after the lease too, but takes nothing over (it is read-only)', () => {
    const { store: s, clock } = store();
    s.checkAndRecord(KEY, 'crashed');
    clock.advanceTo(LEASE);
    expect(s.check(KEY)).toEqual({ kind: 'new', leaseExpired: { placeholderAtMs: 0, expiredAtMs: LEASE } });
    expect(s.peek(KEY)).toMatchObject({ result: 'crashed', recordedAtMs: 0 });
  });

  it('never expires a recorded result early: only a placeholder has a lease', () => {
    const { store: s, clock } = store();
    s.record(KEY, 'r-1');
    clock.advanceTo(LEASE + 1);
    expect(s.checkAndRecord(KEY, 'p')).toMatchObject({ kind: 'duplicate', originalResult: 'r-1', inProgress: false });
  });

  it('uses the configured lease, and lets the window end first when the lease is longer', () => {
    const short = store({ inProgressExpirationSeconds: 5 });
    short.store.checkAndRecord(KEY, 'p');
    short.clock.advanceTo(5 * SECOND);
    expect(short.store.checkAndRecord(KEY, 'p').kind).toBe('new');
    const long = store({ inProgressExpirationSeconds: 7_200, dedupWindowSeconds: 60 });
    long.store.checkAndRecord(KEY, 'p');
    expect(long.store.check(KEY)).toMatchObject({ kind: 'duplicate', inProgressExpiresAtMs: 60 * SECOND });
    long.clock.advanceTo(60 * SECOND);
    expect(long.store.checkAndRecord(KEY, 'p')).toEqual({ kind: 'new' }); // the window ended: an ordinary New
  });
});

describe('a different agent gets an independent key', () => {
  it('same operation type and content, two agent_ids: two keys, and each is New', () => {
    const { store: s } = store();
    const mine = idempotencyKey('agent-1', 'memory_write', { note: 'buy milk' });
    const theirs = idempotencyKey('agent-2', 'memory_write', { note: 'buy milk' });
    expect(mine).not.toBe(theirs);
    expect(mine.split(':')[2]).toBe(theirs.split(':')[2]); // same content hash: only the agent differs
    expect(s.checkAndRecord(mine, 'p')).toEqual({ kind: 'new' });
    expect(s.checkAndRecord(theirs, 'p')).toEqual({ kind: 'new' });
    expect(s.size()).toBe(2);
  });
});

describe('release: a failed operation does not block its key for an hour (ours)', () => {
  it('removes the placeholder, so the next attempt is New', () => {
    const { store: s, events } = store();
    s.checkAndRecord(KEY, 'in_progress');
    expect(s.release(KEY)).toBe(true);
    expect(s.peek(KEY)).toBeUndefined();
    expect(s.checkAndRecord(KEY, 'in_progress').kind).toBe('new');
    expect(ofType(events, 'idempotency.released')).toEqual([{ type: 'idempotency.released', atMs: 0, key: KEY, removed: true }]);
  });

  it('never releases a recorded result', () => {
    const { store: s } = store();
    s.record(KEY, 'r-1');
    expect(s.release(KEY)).toBe(false);
    expect(s.check(KEY)).toMatchObject({ kind: 'duplicate', originalResult: 'r-1' });
  });
});

describe('max_key_length: a longer key skips dedup, with a warning in the trace', () => {
  it('deduplicates a key of exactly 256 bytes', () => {
    const { store: s } = store();
    const key = 'k'.repeat(256);
    expect(s.checkAndRecord(key, 'p').kind).toBe('new');
    expect(s.checkAndRecord(key, 'p').kind).toBe('duplicate');
  });

  it('answers New every time for 257 bytes, stores nothing, and emits a warning naming the sizes', () => {
    const { store: s, events } = store();
    const key = 'k'.repeat(257);
    expect(s.checkAndRecord(key, 'p')).toEqual({ kind: 'new', skipped: 'key_too_long' });
    s.record(key, 'r');
    expect(s.checkAndRecord(key, 'p')).toEqual({ kind: 'new', skipped: 'key_too_long' });
    expect(s.size()).toBe(0);
    expect(ofType(events, 'idempotency.skipped')[0]).toEqual({
      type: 'idempotency.skipped',
      atMs: 0,
      key,
      reason: 'key_too_long',
      keyBytes: 257,
      maxKeyLength: 256,
    });
  });

  it('counts UTF-8 bytes: 129 two-byte characters are 258 bytes, too long', () => {
    const { store: s } = store();
    expect(s.checkAndRecord('é'.repeat(128), 'p')).toEqual({ kind: 'new' });
    expect(s.checkAndRecord('é'.repeat(129), 'p')).toEqual({ kind: 'new', skipped: 'key_too_long' });
  });
});

describe('enabled: false turns deduplication off', () => {
  it('answers New even after a result was recorded', () => {
    const { store: s } = store({ enabled: false });
    s.record(KEY, 'r-1');
    expect(s.checkAndRecord(KEY, 'p')).toEqual({ kind: 'new', skipped: 'disabled' });
    expect(s.size()).toBe(0);
  });
});

describe('lazy cleanup: expired rows are purged at check time, every cleanup_interval_seconds', () => {
  it('keeps an expired row stored until the interval has passed, then a check purges it', () => {
    const { store: s, clock, events } = store();
    s.record(KEY, 'r-1');
    clock.advanceTo(7_200 * SECOND - 1);
    expect(s.check(KEY).kind).toBe('new'); // expired: no longer answers duplicates
    expect(s.size()).toBe(1); // but not purged yet: no timers
    clock.advance(1);
    s.check('another:key:x');
    expect(s.size()).toBe(0);
    expect(ofType(events, 'idempotency.cleanup')).toEqual([{ type: 'idempotency.cleanup', atMs: 7_200 * SECOND, removed: 1 }]);
  });

  it('purges only expired rows', () => {
    const { store: s, clock } = store();
    s.record('a:t:1', 'old');
    clock.advanceTo(7_000 * SECOND);
    s.record('a:t:2', 'recent');
    clock.advanceTo(7_200 * SECOND);
    expect(s.cleanupExpired()).toBe(1);
    expect(s.peek('a:t:1')).toBeUndefined();
    expect(s.peek('a:t:2')).toMatchObject({ key: 'a:t:2', status: 'done', result: 'recent' });
  });
});

describe('a crash loses nothing committed', () => {
  it('still answers Duplicate, and still holds an in-progress placeholder, after the connection is dropped', () => {
    const { store: s, clock, db } = store();
    s.record(KEY, 'r-1');
    s.checkAndRecord('agent-1:memory_write:pending', 'in_progress');
    const reopened = crashAndReopen(db);
    const again = new IdempotencyStore({ db: reopened, clock });
    expect(again.check(KEY)).toMatchObject({ kind: 'duplicate', originalResult: 'r-1' });
    expect(again.check('agent-1:memory_write:pending')).toMatchObject({ kind: 'duplicate', inProgress: true });
  });
});
