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
 * actor move (`Turns`), and a statement that meets another connection's write lock waits there. The store runs on
 * a SQLite connection (better-sqlite3, answered at once) or a PostgreSQL one (src/core/sql.ts `SqlConnection`):
 * the statements are written once per dialect, side by side, in STATEMENTS, each operation's in one place, with
 * named parameters (`@task`; PostgreSQL's `$n` are numbered from them); a deliberately broken store (src/mutants)
 * changes one clause, on both. On PostgreSQL the write lock is the run's advisory lock, tried and never waited
 * for (src/postgres/connection.ts `neverWait`): `begin` and every guarded autocommit write take it, and a refusal
 * is the same busy as SQLite's.
 */
import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { isBusy } from '../core/busy.js';
import { abandon, all, begin, commit, get, run, SqliteSql, type Sql, type SqlConnection, type Statement as SqlStatement } from '../core/sql.js';
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
  /** A SQLite connection, or either database's (src/core/sql.ts); on PostgreSQL one that never waits on the lock. */
  db: Database.Database | SqlConnection;
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

/**
 * The same tables on PostgreSQL, in the run's schema beside the tool's: SQLite's `rowid` (the queue's order) is a
 * column there, numbered max + 1 as SQLite numbers it, and so is the log's `seq`.
 */
export const QUEUE_SCHEMA_PG = `
CREATE TABLE tasks(rowid bigint NOT NULL UNIQUE, task_id text PRIMARY KEY, state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
                   owner text, token integer NOT NULL DEFAULT 0, lease_until_ms bigint, finished_token integer,
                   result text, updated_at_ms bigint NOT NULL DEFAULT 0);
CREATE INDEX tasks_by_state ON tasks(state, owner);
CREATE TABLE ledger_tokens(rowid bigint NOT NULL UNIQUE, key text PRIMARY KEY, task_id text NOT NULL, owner text NOT NULL, token integer NOT NULL);
CREATE TABLE events(seq bigint PRIMARY KEY, label text NOT NULL, state text NOT NULL,
                    task_id text NOT NULL, owner text NOT NULL, token integer NOT NULL);
CREATE INDEX events_by_task ON events(task_id, seq);
`;

const same = (text: string) => ({ sqlite: text, postgres: text });

const READS = {
  task: { sqlite: "INSERT INTO tasks(task_id, state) VALUES (@task, 'queued')", postgres: "INSERT INTO tasks(rowid, task_id, state) VALUES ((SELECT coalesce(max(rowid), 0) + 1 FROM tasks), @task, 'queued')" },
  tokens: same('SELECT key, task_id, owner, token FROM ledger_tokens ORDER BY rowid'),
  log: same('SELECT seq, label, state FROM events ORDER BY seq'),
};

/** The queue's tables, with `tasks` queued, in one transaction. */
export function createQueue(db: Database.Database, tasks: readonly string[]): void {
  db.exec('BEGIN');
  try {
    db.exec(QUEUE_SCHEMA);
    SqliteSql.of(db).run(queueRows(tasks, 'sqlite'));
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** `tasks` queued, in order (inside the caller's transaction, after the tables are made). */
export function* queueRows(tasks: readonly string[], dialect: Dialect): Sql<void> {
  const st = queued(READS.task);
  for (const task of tasks) yield* run(st, ...bind(st, dialect, { task }));
}

/** Each receipt's grant, in the order they were written (the run's account, on either database). */
export function* ledgerTokenOps(dialect: Dialect): Sql<Array<{ key: string; task_id: string; owner: string; token: number }>> {
  const st = queued(READS.tokens);
  return (yield* all(st, ...bind(st, dialect, {}))) as Array<{ key: string; task_id: string; owner: string; token: number }>;
}

/** The task's log as committed, in order: [seq, label, state JSON]. */
export function* taskLogOps(dialect: Dialect): Sql<Array<{ seq: number; label: string; state: string }>> {
  const st = queued(READS.log);
  return (yield* all(st, ...bind(st, dialect, {}))) as Array<{ seq: number; label: string; state: string }>;
}

/**
 * The clauses a broken store changes (src/mutants/queueStores.ts): who may write (`fence`), who may finish a task
 * (`finish`), which expired lease a sweep may return (`rescue`). Each is a SQL condition on `tasks`, the same on both
 * databases.
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

export type Dialect = 'sqlite' | 'postgres';

/**
 * Every statement of the protocol, by dialect, side by side. Named parameters (`@task`) are bound from objects on
 * SQLite and numbered `$1, $2, …` in order of first use on PostgreSQL. PostgreSQL's differ where said: its `rowid`
 * is a column, a value only selected needs its type, and the log's INSERT numbers its row and hands the number back.
 * (The claim's `FOR UPDATE SKIP LOCKED` is issue 23's item 4: here one writer at a time holds the run's lock.)
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
  // The same but where said: `rowid` is a column of PostgreSQL's tables, numbered as SQLite numbers it; a value only
  // selected needs its type; the log's INSERT numbers its row and hands the number back.
  postgres: (c) => ({
    ...STATEMENTS.sqlite(c),
    begin: '', // the executor's: the run's advisory lock, tried (src/postgres/connection.ts)
    recordToken: `INSERT INTO ledger_tokens(rowid, key, task_id, owner, token)
                  VALUES ((SELECT coalesce(max(rowid), 0) + 1 FROM ledger_tokens), @key, @task, @owner, @token)`,
    append: `INSERT INTO events(seq, label, state, task_id, owner, token)
             SELECT (SELECT coalesce(max(seq), 0) + 1 FROM events), @label::text, @state::text, @task::text, @owner::text, @token::integer
             WHERE EXISTS (SELECT 1 FROM tasks WHERE ${c.fence}) RETURNING seq`,
  }),
};

export type Statement =
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

/** The statements that take no parameter (better-sqlite3 refuses an object for them). */
const NO_PARAMETERS: ReadonlySet<Statement> = new Set(['begin', 'queued', 'rows']);

/** A queue statement as the executors run it: its PostgreSQL text numbered, and the order its parameters go in. */
interface QueueStatement extends SqlStatement {
  readonly names: readonly string[];
}

const made = new Map<string, QueueStatement>();

/** The statement of these texts (one object per pair, so each connection prepares it once). */
function queued(text: { sqlite: string; postgres: string }): QueueStatement {
  const key = `${text.sqlite}\u0000${text.postgres}`;
  let found = made.get(key);
  if (found === undefined) {
    const names: string[] = [];
    const postgres = text.postgres.replace(/@(\w+)/g, (_, name: string) => {
      if (!names.includes(name)) names.push(name);
      return `$${names.indexOf(name) + 1}`;
    });
    // PostgreSQL prepares a statement under its name once per connection: a name per text (a mutant's differ).
    made.set(key, (found = { name: `queue_${made.size + 1}`, sqlite: text.sqlite, postgres, names }));
  }
  return found;
}

/** The parameters as the dialect binds them: SQLite an object of names (none when the statement has none), PostgreSQL values in order. */
function bind(st: QueueStatement, dialect: Dialect, params: Record<string, unknown>): unknown[] {
  if (dialect === 'postgres') return st.names.map((name) => params[name]);
  return st.names.length === 0 ? [] : [params];
}

/** A connection as the queue meets it. */
function connectionOf(db: Database.Database | SqlConnection): SqlConnection {
  return 'dialect' in db ? db : SqliteSql.of(db);
}

/** The first row, or undefined. */
function* one<R>(st: QueueStatement, dialect: Dialect, params: Record<string, unknown>): Sql<R | undefined> {
  return (yield* get(st, ...bind(st, dialect, params))) as R | undefined;
}

export class QueueStore {
  protected readonly connection: SqlConnection;
  protected readonly dialect: Dialect;
  protected readonly clock: Clock;
  protected readonly leaseMs: number;
  protected readonly turns: Turns;
  readonly #text: Record<Statement, string>;
  readonly #prepared = new Map<Statement, Database.Statement>();
  readonly #statements = new Map<Statement, QueueStatement>();
  #other: Record<Statement, string> | null = null;

  constructor(deps: QueueDeps) {
    this.connection = connectionOf(deps.db);
    this.dialect = this.connection.dialect;
    this.clock = deps.clock;
    this.leaseMs = deps.leaseMs;
    this.turns = deps.turns ?? NO_TURNS;
    this.#text = STATEMENTS[this.dialect](this.clauses());
  }

  /** SQLite's connection itself (what runs on SQLite only: a deferred transaction's mutant, the sync reads). */
  protected get db(): Database.Database {
    if (!(this.connection instanceof SqliteSql)) throw new TypeError('this queue runs on PostgreSQL: SQLite\'s connection is not there');
    return this.connection.db;
  }

  /** The clauses of the guards: the protocol's (a broken store changes one). */
  protected clauses(): Clauses {
    return CLAUSES;
  }

  /** SQLite's prepared statement (on SQLite only). */
  protected sql(name: Statement): Database.Statement {
    let statement = this.#prepared.get(name);
    if (statement === undefined) this.#prepared.set(name, (statement = this.db.prepare(this.#text[name])));
    return statement;
  }

  /** A statement of this store, both dialects (made once per store). */
  protected statement(name: Statement): QueueStatement {
    let found = this.#statements.get(name);
    if (found === undefined) {
      const other = (this.#other ??= STATEMENTS[this.dialect === 'sqlite' ? 'postgres' : 'sqlite'](this.clauses()));
      found = this.dialect === 'sqlite' ? queued({ sqlite: this.#text[name], postgres: other[name] }) : queued({ sqlite: other[name], postgres: this.#text[name] });
      this.#statements.set(name, found);
    }
    return found;
  }

  /** The first row of a statement, on either database (at once on SQLite). */
  protected async one<R>(name: Statement, params: Record<string, unknown> = {}): Promise<R | undefined> {
    if (this.dialect === 'sqlite') return (NO_PARAMETERS.has(name) ? this.sql(name).get() : this.sql(name).get(params)) as R | undefined;
    return this.connection.run(one<R>(this.statement(name), this.dialect, params));
  }

  /** Every row of a statement. */
  protected async many<R>(name: Statement, params: Record<string, unknown> = {}): Promise<R[]> {
    if (this.dialect === 'sqlite') return (NO_PARAMETERS.has(name) ? this.sql(name).all() : this.sql(name).all(params)) as R[];
    return this.connection.run(all(this.statement(name), ...bind(this.statement(name), this.dialect, params))) as Promise<R[]>;
  }

  /** A statement run for its effect: how many rows it changed. */
  protected async change(name: Statement, params: Record<string, unknown>): Promise<number> {
    if (this.dialect === 'sqlite') return this.sql(name).run(params).changes;
    return this.connection.run(run(this.statement(name), ...bind(this.statement(name), this.dialect, params))) as Promise<number>;
  }

  /** 1. CLAIM, one transaction: a task this worker holds already (re-granted), else the first queued one; null when none. */
  async claim(owner: string): Promise<Grant | null> {
    await this.begin('claim:read');
    try {
      await this.turns.at('claim:read');
      const held = await this.one<{ task_id: string; token: number }>('held', { owner });
      const found = held ?? (await this.one<{ task_id: string; token: number }>('queued'));
      if (found === undefined) {
        await this.commit();
        return null;
      }
      await this.turns.at('claim:write');
      const now = this.clock.nowMs();
      const granted = (await this.one<{ token: number; lease_until_ms: number }>('grant', { owner, task: found.task_id, seen: found.token, until: now + this.leaseMs, now }))!;
      await this.turns.at('claim:commit');
      await this.commit(); // commit point 1: the grant is the truth
      return { task: found.task_id, owner, token: granted.token, leaseUntilMs: granted.lease_until_ms, reclaim: held !== undefined };
    } catch (error) {
      await this.rollback();
      throw error;
    }
  }

  /** The heartbeat: the lease runs `leaseMs` from now again. Returns its new expiry. */
  async renew(fence: Fence): Promise<number> {
    const now = this.clock.nowMs();
    const row = await this.write(() => this.one<{ lease_until_ms: number }>('renew', { ...fence, until: now + this.leaseMs, now }));
    if (row === undefined) throw await this.stale(fence, 'renew');
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
    const changes = await this.write(() => this.change('finish', { ...fence, state, result, now: this.clock.nowMs() }));
    if (changes === 0) throw await this.stale(fence, state === 'done' ? 'complete' : 'fail');
  }

  /** A line of the task's log, written under the holder's grant. Returns its number. */
  async append(fence: Fence, label: string, state: string): Promise<number> {
    const seq = await this.write(async () => {
      if (this.dialect === 'postgres') return (await this.one<{ seq: number }>('append', { ...fence, label, state }))?.seq ?? null;
      const info = this.sql('append').run({ ...fence, label, state });
      return info.changes === 0 ? null : Number(info.lastInsertRowid);
    });
    if (seq === null) throw await this.stale(fence, 'log');
    return seq;
  }

  /** 3. SWEEP, one transaction: every expired lease back to the queue — only if it is still that grant, expired. */
  async sweep(): Promise<Swept[]> {
    await this.begin('sweep:read');
    try {
      await this.turns.at('sweep:read');
      const now = this.clock.nowMs();
      const expired = await this.many<{ task_id: string; owner: string; token: number; lease_until_ms: number }>('expired', { now });
      const swept: Swept[] = [];
      for (const row of expired) {
        await this.turns.at('sweep:write');
        const changes = await this.change('rescue', { task: row.task_id, token: row.token, now: this.clock.nowMs() });
        if (changes > 0) swept.push({ task: row.task_id, owner: row.owner, token: row.token, leaseUntilMs: row.lease_until_ms });
      }
      await this.turns.at('sweep:commit');
      await this.commit(); // commit point 3
      return swept;
    } catch (error) {
      await this.rollback();
      throw error;
    }
  }

  /** Inside the tool's transaction (its connection is this one): the guard the reserve's effect commits with. */
  toolFence(fence: Fence): ToolFence {
    const store = this;
    const { dialect } = this;
    return {
      *check() {
        if ((yield* one(store.statement('check'), dialect, { ...fence })) === undefined) {
          const now = yield* one<TaskRow>(store.statement('row'), dialect, { task: fence.task });
          throw staleRefusal(fence, 'reserve', now ?? null);
        }
      },
      *record(key) {
        const st = store.statement('recordToken');
        yield* run(st, ...bind(st, dialect, { key, ...fence }));
      },
    };
  }

  /** Resolves once this connection could begin a write (no other holds the write lock): what a write waits for first. */
  async writable(): Promise<void> {
    for (;;) {
      try {
        if (this.dialect === 'sqlite') {
          this.db.exec('BEGIN IMMEDIATE');
          this.db.exec('ROLLBACK');
        } else {
          await this.connection.run(begin());
          await this.connection.run(abandon());
        }
        return;
      } catch (error) {
        if (!isBusy(error)) throw error;
        await this.turns.busy('write');
      }
    }
  }

  /** The last line of a task's log: what a new holder recovers from. */
  async lastEvent(task: string): Promise<{ seq: number; label: string; state: string } | null> {
    return (await this.one<{ seq: number; label: string; state: string }>('lastEvent', { task })) ?? null;
  }

  /** One task's row as it stands, at once (SQLite only; `readRow` on either). */
  row(task: string): TaskRow | null {
    return (this.sql('row').get({ task }) as TaskRow | undefined) ?? null;
  }

  /** Every task's row, in queue order, at once (SQLite only; `readRows` on either). */
  rows(): TaskRow[] {
    return this.sql('rows').all() as TaskRow[];
  }

  /** One task's row as it stands (a worker reading its own lease — which proves nothing by the time it writes). */
  async readRow(task: string): Promise<TaskRow | null> {
    return (await this.one<TaskRow>('row', { task })) ?? null;
  }

  /** Every task's row, in queue order. */
  async readRows(): Promise<TaskRow[]> {
    return this.many<TaskRow>('rows');
  }

  /** BEGIN IMMEDIATE (PostgreSQL: the run's lock, tried): the write lock first, so nothing read can change before the write; waits while another holds it. */
  protected async begin(point: QueuePoint): Promise<void> {
    for (;;) {
      try {
        if (this.dialect === 'sqlite') this.sql('begin').run();
        else await this.connection.run(begin());
        return;
      } catch (error) {
        if (!isBusy(error)) throw error;
        await this.turns.busy(point);
      }
    }
  }

  protected async commit(): Promise<void> {
    if (this.dialect === 'sqlite') this.db.exec('COMMIT');
    else await this.connection.run(commit());
  }

  /**
   * One statement that writes, in its own transaction; waits while another connection holds the write lock. On SQLite
   * an autocommit statement; on PostgreSQL the same statement between the lock's BEGIN and COMMIT.
   */
  protected async write<T>(statement: () => T | Promise<T>): Promise<T> {
    for (;;) {
      try {
        if (this.dialect === 'sqlite') return await statement();
        await this.connection.run(begin());
      } catch (error) {
        if (!isBusy(error)) throw error;
        await this.turns.busy('write');
        continue;
      }
      try {
        const value = await statement();
        await this.commit();
        return value;
      } catch (error) {
        await this.rollback();
        throw error;
      }
    }
  }

  protected async rollback(): Promise<void> {
    // A crash has already closed the connection, which rolled the transaction back: touch nothing.
    if (this.dialect === 'sqlite') {
      if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
    } else await this.connection.run(abandon());
  }

  /** The definite refusal of a stale holder's write, saying whose grant the task is under now. */
  protected async stale(fence: Fence, what: string): Promise<ContractError> {
    return staleRefusal(fence, what, await this.readRow(fence.task));
  }
}

/** The refusal of a stale holder, from the task's row as it stands. */
function staleRefusal(fence: Fence, what: string, now: TaskRow | null): ContractError {
  const of = { what, task: fence.task, token: fence.token, owner: fence.owner };
  if (now === null) return refuse('STALE_FENCE', 'staleFenceMissing', of);
  if (now.state === 'running') return refuse('STALE_FENCE', 'staleFenceHeld', { ...of, holder: String(now.owner), now: now.token });
  if (now.state === 'queued') return refuse('STALE_FENCE', 'staleFenceQueued', { ...of, now: now.token });
  return refuse('STALE_FENCE', 'staleFenceEnded', { ...of, state: now.state, now: now.finished_token ?? now.token });
}

/** The queue implementation a run meets: the real one, or a deliberately broken store (src/mutants). */
export type QueueClass = new (deps: QueueDeps) => QueueStore;
