/**
 * What the second exercise's class is built on (src/runner/LearnerWorker.ts): the queue's side of a worker —
 * claiming a task, finishing it, returning expired leases — written in SQL against the queue's table `tasks`
 * (docs/spec.md §10). The class runs in a box (src/box) like a learner's runner: every statement it sends
 * crosses to the harness, which runs it on the worker's own connection to the shared database — and may let
 * another worker move before it (an interleaving point per statement), so a race is a schedule, not luck.
 *
 * The harness judges from the database, never from what the class returns: after a claim it reads the grant
 * (owner, token, lease) from the table, and the checks read every change of the table as committed.
 */
import type { Fence } from '../queue/QueueStore.js';

export type { Fence } from '../queue/QueueStore.js';

/** A statement's parameters: named (`@task` bound from `{ task }`) or in order (`?`). */
export type SqlParams = Record<string, string | number | null> | Array<string | number | null>;

/** A row as SQLite returns it. */
export type Row = Record<string, string | number | null>;

/**
 * The worker's connection, as the class reaches it: one statement per call, answered at once. `exec` takes
 * transaction control only (BEGIN, BEGIN IMMEDIATE, COMMIT, ROLLBACK); `get`, `all` and `run` one statement
 * each, which may write the table `tasks` and nothing else. An error SQLite raises (a syntax error, a
 * constraint, SQLITE_BUSY) is thrown here as SQLite's own: `error.code` names it.
 *
 * SQLITE_BUSY: a statement that begins a write while another connection holds the write lock waits for it (the
 * harness lets the others move until the lock is free) — BEGIN IMMEDIATE, and a write outside a transaction.
 * A read transaction that tries to become a write transaction cannot wait (what it read may already be out of
 * date): that statement throws SQLITE_BUSY at once.
 */
export interface WorkerDb {
  get<T = Row>(sql: string, params?: SqlParams): T | undefined;
  all<T = Row>(sql: string, params?: SqlParams): T[];
  run(sql: string, params?: SqlParams): { changes: number };
  exec(sql: string): void;
}

export interface WorkerDeps {
  db: WorkerDb;
  /** The virtual clock, in ms: what a lease's expiry is compared with. */
  clock: { nowMs(): number };
  /** How long a grant lasts, in virtual ms. */
  leaseMs: number;
}

/** What `claim` hands back: the task granted. The harness reads the grant itself (owner, token, lease) from the table. */
export interface Claimed {
  task: string;
}

/** A lease `sweep` returned to the queue. */
export interface Returned {
  task: string;
  owner: string;
  token: number;
}

/** The shape the box recognises a worker class by (a runner class has `step`; this has these three). */
export const WORKER_METHODS = ['claim', 'finish', 'sweep'] as const;

export abstract class BaseWorker {
  protected readonly db: WorkerDb;
  protected readonly clock: { nowMs(): number };
  protected readonly leaseMs: number;

  constructor(deps: WorkerDeps) {
    this.db = deps.db;
    this.clock = deps.clock;
    this.leaseMs = deps.leaseMs;
  }

  /** Grant `owner` a task — the one it holds already, else the first queued — or say there is none (null). */
  abstract claim(owner: string): Claimed | null | Promise<Claimed | null>;

  /** Finish the task under this grant (`done` or `failed`, with its result): true if it did, false if the grant no longer holds it. */
  abstract finish(fence: Fence, state: 'done' | 'failed', result: string): boolean | Promise<boolean>;

  /** Return every expired lease to the queue; say which. */
  abstract sweep(): Returned[] | Promise<Returned[]>;
}
