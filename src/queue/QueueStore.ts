/**
 * The task queue: leases and fencing tokens, in the tool's database — the protocol in one file (docs/spec.md §10).
 *
 * Guarantees:
 * - A grant is made in one transaction (BEGIN IMMEDIATE: a read-then-write takes the write lock before it reads)
 *   and carries a lease (its expiry on the virtual clock) and a fencing token: the task's previous token plus
 *   one, on EVERY grant — the same worker's re-claim included (its claim's reply was lost, or it held the task in
 *   a life a crash ended).
 * - A holder's write commits only under its own grant. Every write a holder makes — the reservation's effect and
 *   its ledger row, a line of the task's log, renew (the heartbeat), complete, fail — runs in one transaction
 *   with the guard `task, owner, token, state running`; zero rows means a stale holder: the transaction is rolled
 *   back, no effect, no ledger row, no log line, and the holder gets a definite ContractError STALE_FENCE.
 * - A finished task (done, failed) never changes again: every write is conditional on `state = 'running'`, the
 *   sweep's included — a rescue must never resurrect a finished task.
 *
 * Commit points, each the one write that makes its fact true:
 *   1. CLAIM: the grant (owner, token + 1, lease) — `claim`'s COMMIT;
 *   2. GUARDED WRITE: the holder's write together with the guard that admitted it — the tool's COMMIT in
 *      `reserve` (effect, ledger row and the row's token, src/inventory/InventoryTool.ts), the log's INSERT
 *      (`append`), `renew`, `complete`, `fail`;
 *   3. SWEEP: expired leases back to `queued` (owner cleared, token kept: the next grant is token + 1) — `sweep`'s
 *      COMMIT, conditional on the very grant it read having expired.
 *
 * A worker's own "is my lease still valid?" is not safety: between that read and its write the lease can expire
 * and the task be granted to another (a GC pause, a SIGSTOP, a starved heartbeat). Only the store, checking the
 * token in the same transaction as the write, can refuse the stale one — the storage must reject a write whose
 * token has gone backwards (Kleppmann). The lease's expiry is liveness (a dead holder's task comes back); the
 * token is safety.
 *
 * Every operation is asynchronous: at each statement boundary of a claim or a sweep the harness may let another
 * actor move (`Turns`), a statement that meets another connection's write lock waits there, and an asynchronous
 * client (PostgreSQL, issue 23) sits under the same interface. The statements are written once per dialect, in
 * STATEMENTS, each operation's in one place; a deliberately broken store (src/mutants) changes one clause.
 */
import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { isBusy } from '../core/busy.js';
import { ContractError } from '../inventory/errors.js';
import { refuse } from '../inventory/refusals.js';
import type { ToolFence } from '../inventory/InventoryTool.js';

export type TaskState = 'queued' | 'running' | 'done' | 'failed';

/** A holder's credentials for a task: every write it makes is guarded by all three. */
export interface Fence {
  task: string;
  owner: string;
  token: number;
}

/** What a claim grants: the fence, and the lease's expiry on the virtual clock. */
export interface Grant extends Fence {
  leaseUntilMs: number;
  /** The claimant held the task already (its claim's reply was lost, or a crash ended the life that held it). */
  reclaim: boolean;
}

/** One task as the queue's table holds it. */
export interface TaskRow {
  task_id: string;
  state: TaskState;
  owner: string | null;
  token: number;
  lease_until_ms: number | null;
  /** The token of the grant that finished it (done or failed). */
  finished_token: number | null;
}

/** A lease the sweep returned to the queue. */
export interface Swept {
  task: string;
  owner: string;
  token: number;
  leaseUntilMs: number;
}

/** The statement boundaries where another actor may move. */
export type QueuePoint = 'claim:read' | 'claim:write' | 'claim:commit' | 'sweep:read' | 'sweep:write' | 'sweep:commit' | 'write';

/** How the harness interleaves: a statement boundary, and a wait for another connection's write lock. */
export interface Turns {
  /** Another actor may move here, before the next statement. */
  at(point: QueuePoint): Promise<void>;
  /** SQLite answered BUSY: resolve when it is worth trying again (another actor has moved). */
  busy(point: QueuePoint): Promise<void>;
}

/** No harness: nothing interleaves, and BUSY (which nobody could release) is thrown as it came. */
export const NO_TURNS: Turns = {
  at: async () => {},
  busy: async () => {
    throw new Error('SQLITE_BUSY with no other actor to wait for');
  },
};

export interface QueueDeps {
  db: Database.Database;
  clock: Clock;
  /** How long a grant or a renewal lasts, in virtual ms. */
  leaseMs: number;
  turns?: Turns;
  /** Whom this connection serves (a worker's name, the sweeper): a learner's worker runs in a box of each one's own. */
  actor?: string;
}

/** The tables. `events` is the task's log (the chapter's three columns, then who wrote each line under which grant). */
export const QUEUE_SCHEMA = `
CREATE TABLE tasks(task_id TEXT PRIMARY KEY, state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
                   owner TEXT, token INTEGER NOT NULL DEFAULT 0, lease_until_ms INTEGER, finished_token INTEGER,
                   result TEXT, updated_at_ms INTEGER NOT NULL DEFAULT 0);
CREATE INDEX tasks_by_state ON tasks(state, owner);
CREATE TABLE ledger_tokens(key TEXT PRIMARY KEY, task_id TEXT NOT NULL, owner TEXT NOT NULL, token INTEGER NOT NULL);
CREATE TABLE events(seq INTEGER PRIMARY KEY, label TEXT NOT NULL, state TEXT NOT NULL,
                    task_id TEXT NOT NULL, owner TEXT NOT NULL, token INTEGER NOT NULL);
CREATE INDEX events_by_task ON events(task_id, seq);
`;

/** The queue's tables, with `tasks` queued, in one transaction. */
export function createQueue(db: Database.Database, tasks: readonly string[]): void {
  db.exec('BEGIN');
  try {
    db.exec(QUEUE_SCHEMA);
    const insert = db.prepare("INSERT INTO tasks(task_id, state) VALUES (?, 'queued')");
    for (const task of tasks) insert.run(task);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * The clauses a broken store changes (src/mutants/queueStores.ts): who may write (`fence`), who may finish a task
 * (`finish`), which expired lease a sweep may return (`rescue`). Each is a SQL condition on `tasks`.
 */
export interface Clauses {
  fence: string;
  finish: string;
  rescue: string;
}

export const CLAUSES: Clauses = {
  fence: "task_id = @task AND owner = @owner AND token = @token AND state = 'running'",
  finish: "task_id = @task AND owner = @owner AND token = @token AND state = 'running'",
  rescue: "task_id = @task AND token = @token AND state = 'running' AND lease_until_ms <= @now",
};

export type Dialect = 'sqlite';

/**
 * Every statement of the protocol, by dialect (PostgreSQL's go beside SQLite's, issue 23: `FOR UPDATE SKIP
 * LOCKED` in the claim, `$n` parameters). Named parameters (`@task`) are bound from objects.
 */
export const STATEMENTS: Record<Dialect, (c: Clauses) => Record<Statement, string>> = {
  sqlite: (c) => ({
    begin: 'BEGIN IMMEDIATE',
    // 1. CLAIM: a task this worker holds already (a re-claim), else the first queued one
    held: "SELECT task_id, token FROM tasks WHERE state = 'running' AND owner = @owner ORDER BY rowid LIMIT 1",
    // `owner IS NULL` holds of every queued row (made so, or returned so by the sweep); said here, it lets SQLite read
    // the first one straight from tasks_by_state instead of sorting every queued row on every claim
    queued: "SELECT task_id, token FROM tasks WHERE state = 'queued' AND owner IS NULL ORDER BY rowid LIMIT 1",
    grant: `UPDATE tasks SET state = 'running', owner = @owner, token = token + 1, lease_until_ms = @until, updated_at_ms = @now
            WHERE task_id = @task AND token = @seen AND (state = 'queued' OR (state = 'running' AND owner = @owner))
            RETURNING token, lease_until_ms`,
    // 2. GUARDED WRITES: zero rows means a stale holder
    check: `SELECT 1 FROM tasks WHERE ${c.fence}`,
    recordToken: 'INSERT INTO ledger_tokens(key, task_id, owner, token) VALUES (@key, @task, @owner, @token)',
    append: `INSERT INTO events(label, state, task_id, owner, token) SELECT @label, @state, @task, @owner, @token
             WHERE EXISTS (SELECT 1 FROM tasks WHERE ${c.fence})`,
    renew: `UPDATE tasks SET lease_until_ms = @until, updated_at_ms = @now WHERE ${c.fence} RETURNING lease_until_ms`,
    finish: `UPDATE tasks SET state = @state, lease_until_ms = NULL, finished_token = @token, result = @result, updated_at_ms = @now WHERE ${c.finish}`,
    // 3. SWEEP: every expired lease, each returned only if it is still that very grant, expired
    expired: "SELECT task_id, owner, token, lease_until_ms FROM tasks WHERE state = 'running' AND lease_until_ms <= @now ORDER BY rowid",
    rescue: `UPDATE tasks SET state = 'queued', owner = NULL, lease_until_ms = NULL, updated_at_ms = @now WHERE ${c.rescue}`,
    // reads
    row: 'SELECT task_id, state, owner, token, lease_until_ms, finished_token FROM tasks WHERE task_id = @task',
    rows: 'SELECT task_id, state, owner, token, lease_until_ms, finished_token FROM tasks ORDER BY rowid',
    lastEvent: 'SELECT seq, label, state FROM events WHERE task_id = @task ORDER BY seq DESC LIMIT 1',
  }),
};

type Statement =
  | 'begin'
  | 'held'
  | 'queued'
  | 'grant'
  | 'check'
  | 'recordToken'
  | 'append'
  | 'renew'
  | 'finish'
  | 'expired'
  | 'rescue'
  | 'row'
  | 'rows'
  | 'lastEvent';

export class QueueStore {
  protected readonly db: Database.Database;
  protected readonly clock: Clock;
  protected readonly leaseMs: number;
  protected readonly turns: Turns;
  readonly #text: Record<Statement, string>;
  readonly #prepared = new Map<Statement, Database.Statement>();

  constructor(deps: QueueDeps) {
    this.db = deps.db;
    this.clock = deps.clock;
    this.leaseMs = deps.leaseMs;
    this.turns = deps.turns ?? NO_TURNS;
    this.#text = STATEMENTS.sqlite(this.clauses());
  }

  /** The clauses of the guards: the protocol's (a broken store changes one). */
  protected clauses(): Clauses {
    return CLAUSES;
  }

  protected sql(name: Statement): Database.Statement {
    let statement = this.#prepared.get(name);
    if (statement === undefined) this.#prepared.set(name, (statement = this.db.prepare(this.#text[name])));
    return statement;
  }

  /** 1. CLAIM, one transaction: a task this worker holds already (re-granted), else the first queued one; null when none. */
  async claim(owner: string): Promise<Grant | null> {
    await this.begin('claim:read');
    try {
      await this.turns.at('claim:read');
      const held = this.sql('held').get({ owner }) as { task_id: string; token: number } | undefined;
      const found = held ?? (this.sql('queued').get() as { task_id: string; token: number } | undefined);
      if (found === undefined) {
        this.db.exec('COMMIT');
        return null;
      }
      await this.turns.at('claim:write');
      const now = this.clock.nowMs();
      const granted = this.sql('grant').get({ owner, task: found.task_id, seen: found.token, until: now + this.leaseMs, now }) as { token: number; lease_until_ms: number };
      await this.turns.at('claim:commit');
      this.db.exec('COMMIT'); // commit point 1: the grant is the truth
      return { task: found.task_id, owner, token: granted.token, leaseUntilMs: granted.lease_until_ms, reclaim: held !== undefined };
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  /** The heartbeat: the lease runs `leaseMs` from now again. Returns its new expiry. */
  async renew(fence: Fence): Promise<number> {
    const now = this.clock.nowMs();
    const row = (await this.write(() => this.sql('renew').get({ ...fence, until: now + this.leaseMs, now }))) as { lease_until_ms: number } | undefined;
    if (row === undefined) throw this.stale(fence, 'renew');
    return row.lease_until_ms;
  }

  /** The task is done: its result kept, its lease gone. */
  async complete(fence: Fence, result: string): Promise<void> {
    await this.finish(fence, 'done', result);
  }

  /** The task failed for good (its runner ended without success): kept as failed. */
  async fail(fence: Fence, reason: string): Promise<void> {
    await this.finish(fence, 'failed', reason);
  }

  protected async finish(fence: Fence, state: 'done' | 'failed', result: string): Promise<void> {
    const info = await this.write(() => this.sql('finish').run({ ...fence, state, result, now: this.clock.nowMs() }));
    if (info.changes === 0) throw this.stale(fence, state === 'done' ? 'complete' : 'fail');
  }

  /** A line of the task's log, written under the holder's grant. Returns its number. */
  async append(fence: Fence, label: string, state: string): Promise<number> {
    const info = await this.write(() => this.sql('append').run({ ...fence, label, state }));
    if (info.changes === 0) throw this.stale(fence, 'log');
    return Number(info.lastInsertRowid);
  }

  /** 3. SWEEP, one transaction: every expired lease back to the queue — only if it is still that grant, expired. */
  async sweep(): Promise<Swept[]> {
    await this.begin('sweep:read');
    try {
      await this.turns.at('sweep:read');
      const now = this.clock.nowMs();
      const expired = this.sql('expired').all({ now }) as Array<{ task_id: string; owner: string; token: number; lease_until_ms: number }>;
      const swept: Swept[] = [];
      for (const row of expired) {
        await this.turns.at('sweep:write');
        const info = this.sql('rescue').run({ task: row.task_id, token: row.token, now: this.clock.nowMs() });
        if (info.changes > 0) swept.push({ task: row.task_id, owner: row.owner, token: row.token, leaseUntilMs: row.lease_until_ms });
      }
      await this.turns.at('sweep:commit');
      this.db.exec('COMMIT'); // commit point 3
      return swept;
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  /** Inside the tool's transaction (its connection is this one): the guard the reserve's effect commits with. */
  toolFence(fence: Fence): ToolFence {
    return {
      check: () => {
        if (this.sql('check').get(fence) === undefined) throw this.stale(fence, 'reserve');
      },
      record: (key) => void this.sql('recordToken').run({ key, ...fence }),
    };
  }

  /** Resolves once this connection could begin a write (no other holds the write lock): what a write waits for first. */
  async writable(): Promise<void> {
    for (;;) {
      try {
        this.db.exec('BEGIN IMMEDIATE');
        this.db.exec('ROLLBACK');
        return;
      } catch (error) {
        if (!isBusy(error)) throw error;
        await this.turns.busy('write');
      }
    }
  }

  /** The last line of a task's log: what a new holder recovers from. */
  async lastEvent(task: string): Promise<{ seq: number; label: string; state: string } | null> {
    return (this.sql('lastEvent').get({ task }) as { seq: number; label: string; state: string } | undefined) ?? null;
  }

  /** One task's row as it stands (a worker reading its own lease — which proves nothing by the time it writes). */
  row(task: string): TaskRow | null {
    return (this.sql('row').get({ task }) as TaskRow | undefined) ?? null;
  }

  /** Every task's row, in queue order. */
  rows(): TaskRow[] {
    return this.sql('rows').all() as TaskRow[];
  }

  /** BEGIN IMMEDIATE: the write lock first, so nothing read can change before the write; waits while another holds it. */
  protected async begin(point: QueuePoint): Promise<void> {
    for (;;) {
      try {
        this.sql('begin').run();
        return;
      } catch (error) {
        if (!isBusy(error)) throw error;
        await this.turns.busy(point);
      }
    }
  }

  /** One statement that writes, in its own (autocommit) transaction; waits while another connection holds the write lock. */
  protected async write<T>(statement: () => T): Promise<T> {
    for (;;) {
      try {
        return statement();
      } catch (error) {
        if (!isBusy(error)) throw error;
        await this.turns.busy('write');
      }
    }
  }

  protected rollback(): void {
    // A crash has already closed the connection, which rolled the transaction back: touch nothing.
    if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  /** The definite refusal of a stale holder's write, saying whose grant the task is under now. */
  protected stale(fence: Fence, what: string): ContractError {
    const now = this.row(fence.task);
    const of = { what, task: fence.task, token: fence.token, owner: fence.owner };
    if (now === null) return refuse('STALE_FENCE', 'staleFenceMissing', of);
    if (now.state === 'running') return refuse('STALE_FENCE', 'staleFenceHeld', { ...of, holder: String(now.owner), now: now.token });
    if (now.state === 'queued') return refuse('STALE_FENCE', 'staleFenceQueued', { ...of, now: now.token });
    return refuse('STALE_FENCE', 'staleFenceEnded', { ...of, state: now.state, now: now.finished_token ?? now.token });
  }
}

/** The queue implementation a run meets: the real one, or a deliberately broken store (src/mutants). */
export type QueueClass = new (deps: QueueDeps) => QueueStore;
