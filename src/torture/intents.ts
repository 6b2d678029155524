/**
 * What `faultlab torture` asks its workers to do (docs/spec.md §19): a stream of tasks, each one intent — reserve
 * one unit of an item of its own, after reading its stock — run by the chapter's runner with a scripted policy, as
 * a scenario's task is. One item per task, so that each intent's effects can be counted on the file: the item's
 * version is the number of effects its task had, its ledger rows the receipts, and nothing else touches it.
 *
 * The tables are the simulator's (the tool's and the queue's, in one file), plus two indexes that only the checks
 * read (src/torture/fileChecks.ts): a check that scans the ledger once per task would cost more than the run.
 */
import type Database from 'better-sqlite3';
import { DEFAULT_MAX_CALLS, DEFAULT_MAX_RETRIES } from '../core/defaults.js';
import { abandon, begin, commit, get, run, SqliteSql, statement, type Sql } from '../core/sql.js';
import { createToolDatabase, TOOL_SCHEMA_PG } from '../inventory/schema.js';
import { createQueue, QUEUE_SCHEMA_PG } from '../queue/QueueStore.js';
import type { ScriptStep, Task } from '../scenario/types.js';

/** Each task's item at the start: two, so that a second effect would find the stock for it and be counted. */
export const ITEM_START = { available: 2, version: 0 } as const;

/** Task `t0000042`: zero-padded, so that the ids sort as they were made. */
export function taskName(n: number): string {
  return `t${String(n).padStart(7, '0')}`;
}

/** The item a task reserves from: its own. */
export function itemOf(task: string): string {
  return `item-${task}`;
}

/** The same, in SQL, of a column holding a task's id. */
export function itemOfSql(column: string): string {
  return `('item-' || ${column})`;
}

/** A task as the runner sees it: its own item, the two tools its script uses, the chapter's default budgets. */
export function tortureTask(id: string): Task {
  return { id, items: [itemOf(id)], allow: ['get_stock', 'reserve'], max_calls: DEFAULT_MAX_CALLS, max_retries: DEFAULT_MAX_RETRIES };
}

/** Read the stock, reserve one at the version read: the chapter's happy path. */
export function tortureScript(task: Task): ScriptStep[] {
  const item = task.items[0]!;
  return [
    { kind: 'tool', name: 'get_stock', args: { item } },
    { kind: 'tool', name: 'reserve', args: { item, qty: 1, expected_version: '@get_stock.version' } },
  ];
}

/** The checks' indexes: the ledger by task and by item (the protocol reads it only by key). */
const CHECK_INDEXES = 'CREATE INDEX ledger_by_task ON ledger(task_id); CREATE INDEX ledger_by_item ON ledger(item_id);';

/** The tool's tables and the queue's, empty, in one file. */
export function createTortureDatabase(db: Database.Database): void {
  createToolDatabase(db, { items: {}, docs: [] });
  createQueue(db, []);
  db.exec(CHECK_INDEXES);
}

/** The same tables on PostgreSQL, in the run's schema (made empty by the caller): one script, run once. */
export const TORTURE_SCHEMA_PG = `${TOOL_SCHEMA_PG} ${QUEUE_SCHEMA_PG} ${CHECK_INDEXES}`;

/**
 * The producer's batch. PostgreSQL's `rowid` is a column (src/queue/QueueStore.ts): numbered max + 1, as SQLite
 * numbers it — under the write lock the batch holds, nobody else numbers at the same time.
 */
const ENQUEUE = {
  item: statement<[string, number, number]>('torture.enqueue.item', {
    sqlite: 'INSERT INTO items(item_id, available, version) VALUES (?, ?, ?)',
    postgres: 'INSERT INTO items(rowid, item_id, available, version) VALUES ((SELECT coalesce(max(rowid), 0) + 1 FROM items), $1, $2, $3)',
  }),
  task: statement<[string]>('torture.enqueue.task', {
    sqlite: "INSERT INTO tasks(task_id, state) VALUES (?, 'queued')",
    postgres: "INSERT INTO tasks(rowid, task_id, state) VALUES ((SELECT coalesce(max(rowid), 0) + 1 FROM tasks), $1, 'queued')",
  }),
  queued: statement<[], { n: number }>('torture.queued', { same: "SELECT count(*) AS n FROM tasks WHERE state = 'queued'" }),
  left: statement<[], { n: number }>('torture.left', { same: "SELECT count(*) AS n FROM tasks WHERE state IN ('queued', 'running')" }),
};

/**
 * Tasks `first` … `first + count - 1` and their items, queued in one transaction under the write lock (BEGIN
 * IMMEDIATE on SQLite, the schema's advisory lock on PostgreSQL: the producer is one more writer). SQLITE_BUSY is
 * thrown as it came, with nothing written: the caller waits and calls again.
 */
export function* enqueueOps(first: number, count: number): Sql<void> {
  yield* begin();
  try {
    for (let n = first; n < first + count; n += 1) {
      const id = taskName(n);
      yield* run(ENQUEUE.item, itemOf(id), ITEM_START.available, ITEM_START.version);
      yield* run(ENQUEUE.task, id);
    }
    yield* commit();
  } catch (error) {
    yield* abandon();
    throw error;
  }
}

/** Tasks queued, not yet claimed. */
export function* queuedOps(): Sql<number> {
  return (yield* get(ENQUEUE.queued))!.n;
}

/** Tasks not finished (queued or running): the drain waits until none is left. */
export function* leftOps(): Sql<number> {
  return (yield* get(ENQUEUE.left))!.n;
}

/** `enqueueOps` on a SQLite connection, at once. */
export function enqueue(db: Database.Database, first: number, count: number): void {
  SqliteSql.of(db).run(enqueueOps(first, count));
}
