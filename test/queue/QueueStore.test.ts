/**
 * The queue's protocol (src/queue/QueueStore.ts) on a real SQLite file in WAL mode, one connection per worker:
 * grants and their tokens, the guard on every holder's write, the sweep, and BEGIN IMMEDIATE making a claim's
 * read-then-write one step for every other connection.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { SeededRng } from '../../src/core/rng.js';
import { openDatabase } from '../../src/core/storage.js';
import { isContractError } from '../../src/inventory/errors.js';
import { InventoryTool } from '../../src/inventory/InventoryTool.js';
import { createToolDatabase } from '../../src/inventory/schema.js';
import { createQueue, QueueStore, type Fence, type QueuePoint, type Turns } from '../../src/queue/QueueStore.js';
import { tempFolder } from '../tempFolder.js';

const LEASE_MS = 500;
const opened: Database.Database[] = [];
afterEach(() => opened.splice(0).forEach((db) => db.open && db.close()));

/** One database file with the camera and the queue holding `tasks`; `connect()` gives each worker its own connection. */
function queueFile(tasks: string[] = ['t1']) {
  const path = join(tempFolder('queue'), 'tool.db');
  const connect = () => {
    const db = openDatabase(path, { shared: true, busyTimeoutMs: 0 });
    opened.push(db);
    return db;
  };
  const first = connect();
  createToolDatabase(first, { items: { camera: { available: 3, version: 0 } }, docs: [] });
  createQueue(first, tasks);
  const clock = new VirtualClock();
  const store = (db = connect(), turns?: Turns) => new QueueStore({ db, clock, leaseMs: LEASE_MS, ...(turns ? { turns } : {}) });
  return { connect, clock, store, first };
}

async function refusal(write: Promise<unknown>): Promise<string> {
  try {
    await write;
  } catch (error) {
    if (isContractError(error)) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('a claim grants a lease and a fencing token, in one transaction', () => {
  it('grants the first queued task with token 1 and a lease of 500 ms from now', async () => {
    const { store, clock } = queueFile(['t1', 't2']);
    clock.advance(120);
    expect(await store().claim('w1')).toEqual({ task: 't1', owner: 'w1', token: 1, leaseUntilMs: 620, reclaim: false });
    expect(await store().claim('w2')).toMatchObject({ task: 't2', owner: 'w2', token: 1 });
    expect(await store().claim('w3')).toBeNull();
  });

  it('adds one to the token on every grant, the same worker’s re-claim included', async () => {
    const { store } = queueFile();
    const queue = store();
    const tokens = [];
    for (let i = 0; i < 3; i += 1) tokens.push((await queue.claim('w1'))!);
    expect(tokens.map((g) => [g.token, g.reclaim])).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
    expect(await store().claim('w2')).toBeNull(); // held by w1 all along
  });
});

describe('every write a holder makes is guarded by task, owner and token', () => {
  it('refuses a stale holder’s log line, renewal, completion and failure with STALE_FENCE, changing nothing', async () => {
    const { store, first } = queueFile();
    const old = (await store().claim('w1'))!;
    const current = (await store().claim('w1'))!; // re-claimed: token 2
    const stale = store();
    const before = store().rows();
    expect([
      await refusal(stale.append(old, 'prepared', '{}')),
      await refusal(stale.renew(old)),
      await refusal(stale.complete(old, 'succeeded')),
      await refusal(stale.fail(old, 'tool_error')),
    ]).toEqual(['STALE_FENCE', 'STALE_FENCE', 'STALE_FENCE', 'STALE_FENCE']);
    expect(store().rows()).toEqual(before);
    expect(first.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 0 });
    // The holder of token 2 writes.
    expect(await store().append(current, 'prepared', '{}')).toBe(1);
    await store().complete(current, 'succeeded');
    expect(store().rows()[0]).toMatchObject({ state: 'done', owner: 'w1', token: 2, finished_token: 2, lease_until_ms: null });
  });

  it('says whose grant the task is under in the refusal', async () => {
    const { store } = queueFile();
    const old = (await store().claim('w1'))!;
    await store().claim('w1');
    await expect(store().renew(old)).rejects.toThrow('STALE_FENCE: renew of t1 under token 1 by w1 refused: the task is held by w1 under token 2');
  });

  it('fences the reservation: a stale holder’s reserve is refused before it reads, with no effect, no ledger row, no token row', async () => {
    const { store, connect, clock } = queueFile();
    const old = (await store().claim('w1'))!;
    const current = (await store().claim('w1'))!;
    const db = connect();
    const tool = new InventoryTool({ db, rng: new SeededRng(1), clock });
    const reserve = (fence: Fence) => tool.call({ name: 'reserve', args: { item: 'camera', qty: 1, expected_version: 0, key: 't1:reserve:k' } }, { taskId: 't1', fence: store(db).toolFence(fence) });
    expect(() => reserve(old)).toThrow(/STALE_FENCE/);
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect([count('ledger'), count('ledger_tokens'), (db.prepare('SELECT available FROM items').get() as { available: number }).available]).toEqual([0, 0, 3]);
    reserve(current);
    expect(db.prepare('SELECT key, owner, token FROM ledger_tokens').all()).toEqual([{ key: 't1:reserve:k', owner: 'w1', token: 2 }]);
    expect((db.prepare('SELECT available FROM items').get() as { available: number }).available).toBe(2);
  });
});

describe('the sweep returns expired leases to the queue, and never a finished task', () => {
  it('returns a lease only once it has expired, keeping its token: the next grant is token + 1', async () => {
    const { store, clock } = queueFile();
    const grant = (await store().claim('w1'))!;
    clock.advance(LEASE_MS - 1);
    expect(await store().sweep()).toEqual([]);
    clock.advance(1);
    expect(await store().sweep()).toEqual([{ task: 't1', owner: 'w1', token: 1, leaseUntilMs: 500 }]);
    expect(store().rows()[0]).toMatchObject({ state: 'queued', owner: null, token: 1 });
    expect(await refusal(store().append(grant, 'observed', '{}'))).toBe('STALE_FENCE');
    expect(await store().claim('w2')).toMatchObject({ owner: 'w2', token: 2, reclaim: false });
  });

  it('leaves a done task done, however late it is', async () => {
    const { store, clock } = queueFile();
    const grant = (await store().claim('w1'))!;
    clock.advance(LEASE_MS - 10);
    await store().complete(grant, 'succeeded');
    clock.advance(10_000);
    expect(await store().sweep()).toEqual([]);
    expect(store().rows()[0]).toMatchObject({ state: 'done', token: 1 });
  });

  it('renews a lease: the heartbeat moves its expiry, so the sweep leaves it', async () => {
    const { store, clock } = queueFile();
    const grant = (await store().claim('w1'))!;
    clock.advance(400);
    expect(await store().renew(grant)).toBe(900);
    clock.advance(200);
    expect(await store().sweep()).toEqual([]);
  });
});

/** Two claims, stepped by hand: A stops at its first statement boundary, B runs meanwhile. */
function handTurns() {
  let release!: () => void;
  const stopped = new Promise<void>((resolve) => (release = resolve));
  let atBoundary!: () => void;
  const reached = new Promise<void>((resolve) => (atBoundary = resolve));
  const points: string[] = [];
  const a: Turns = {
    at: async (point: QueuePoint) => {
      points.push(`A ${point}`);
      if (point === 'claim:read') {
        atBoundary();
        await stopped;
      }
    },
    busy: async () => {},
  };
  const b: Turns = {
    at: async (point: QueuePoint) => void points.push(`B ${point}`),
    busy: async (point: QueuePoint) => {
      points.push(`B waits at ${point}`);
      release(); // let A go on: B waits for its lock
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
  return { a, b, reached, points };
}

describe('BEGIN IMMEDIATE: a claim’s read-then-write is one step for every other connection', () => {
  it('makes a second claimant wait for the first one’s lock: exactly one token granted', async () => {
    const { store } = queueFile();
    const turns = handTurns();
    const first = store(undefined, turns.a).claim('w1');
    await turns.reached; // w1 holds the write lock, between its BEGIN and its read
    const second = await store(undefined, turns.b).claim('w2');
    expect(await first).toMatchObject({ owner: 'w1', token: 1 });
    expect(second).toBeNull();
    expect(turns.points).toEqual(['A claim:read', 'B waits at claim:read', 'A claim:write', 'A claim:commit', 'B claim:read']);
  });
});
