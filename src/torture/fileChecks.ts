/**
 * What `faultlab torture` checks on the database file, after every kill and at the end (docs/spec.md §19). Each
 * check reads only the file — the rows as committed, never what a worker says of itself — and, when it breaks, says
 * what it found first and how many it found:
 *
 * - integrity: `PRAGMA integrity_check` answers ok — a kill mid-write left no torn page or index;
 * - double effects: no intent took effect twice — its item's version moved at most once, its ledger holds at most
 *   one receipt;
 * - ledger rows = effects: every item's stock and version moved exactly as its receipts say (an effect without a
 *   receipt, or a receipt without an effect, breaks it);
 * - lost intents: every task done or failed (at the end: the failed are the queue's dead letters, kept with their
 *   state), every outcome as it happened — a done task has its receipt, a task failed by a refusal (tool_error) has
 *   no effect, a finished task's log ends in the state it finished in — and every task the producer made is still
 *   there;
 * - the fence held: no stale write went in — every finished task was finished under its last grant's token, no line
 *   of a task's log carries a token older than a line before it, no token was granted to two workers, and no
 *   finished task was opened again. The store refuses such writes (STALE_FENCE); a store that does not
 *   (src/mutants: no_fence_check, completion_by_id_only, deferred_upgrade) is caught here.
 *
 * A check runs on one schema of the connection: `main` (the live file the workers share) or `archive` (where the
 * driver moves finished tasks once they are checked, src/torture/archive.ts).
 *
 * The same checks run on PostgreSQL (`faultlab torture --db postgres`), on the run's schema the workers share: each
 * query is written for both dialects side by side (src/core/sql.ts `statement`), the logic once, here. There the
 * schema is the connection's search_path (no `main.`, no archive: nothing is moved), and integrity is the server's
 * own (a killed backend's transaction is rolled back by the server, its pages are PostgreSQL's to keep whole): the
 * integrity check is SQLite's, of a file several processes write.
 */
import type Database from 'better-sqlite3';
import { message, type Message } from '../core/message.js';
import { all, get, SqliteSql, statement, type Sql, type SqlConnection } from '../core/sql.js';
import type { TortureCode } from './codes.js';
import { ITEM_START, itemOfSql } from './intents.js';

export const TORTURE_CHECKS = [
  { id: 'integrity', title: message<TortureCode>('torture.check.integrity.title') },
  { id: 'double_effects', title: message<TortureCode>('torture.check.double_effects.title') },
  { id: 'ledger_is_effects', title: message<TortureCode>('torture.check.ledger_is_effects.title') },
  { id: 'lost_intents', title: message<TortureCode>('torture.check.lost_intents.title') },
  { id: 'fence', title: message<TortureCode>('torture.check.fence.title') },
] as const;

export type TortureCheckId = (typeof TORTURE_CHECKS)[number]['id'];

/** One check's verdict: how many breaches it found, and the first (null when it held). */
export interface FileCheck {
  id: TortureCheckId;
  passed: boolean;
  found: number;
  first: Message<TortureCode> | null;
}

export type Schema = 'main' | 'archive';

/** What a schema holds: tasks by state, effects (the items' versions moved), receipts (ledger rows). */
export interface FileFigures {
  queued: number;
  running: number;
  done: number;
  failed: number;
  effects: number;
  receipts: number;
}

function verdict(id: TortureCheckId, found: number, first: Message<TortureCode> | null): FileCheck {
  return { id, passed: found === 0, found, first: found === 0 ? null : first };
}

/** `PRAGMA integrity_check` on one schema: ok, or its first complaint. */
export function integrity(db: Database.Database, schema: Schema, file: string): FileCheck {
  const rows = db.prepare(`PRAGMA ${schema}.integrity_check`).pluck().all() as string[];
  const ok = rows.length === 1 && rows[0] === 'ok';
  // SQLite heads its first complaint with the schema's name (`*** in database main ***`): the file is said instead.
  const detail = (rows[0] ?? '').replace(/^\*\*\* in database \w+ \*\*\*\n/, '');
  return verdict('integrity', ok ? 0 : rows.length, message<TortureCode>('torture.check.integrity.broken', { file, detail }));
}

/** A check's queries, per schema on SQLite (`main.`, `archive.`), on PostgreSQL the connection's own schema. */
function checkStatements(s: Schema) {
  const on = (text: (p: string) => string) => ({ sqlite: text(`${s}.`), postgres: text('') });
  const name = (what: string) => `torture.${s}.${what}`;
  return {
    doubleEffects: statement<[], { task: string; effects: number; receipts: number }>(
      name('doubleEffects'),
      on(
        (p) => `SELECT task, effects, receipts FROM (
         SELECT t.task_id AS task, i.version - ${ITEM_START.version} AS effects, (SELECT count(*) FROM ${p}ledger l WHERE l.task_id = t.task_id) AS receipts
         FROM ${p}tasks t JOIN ${p}items i ON i.item_id = ${itemOfSql('t.task_id')}) AS counted
       WHERE effects > 1 OR receipts > 1 ORDER BY task`,
      ),
    ),
    // PostgreSQL's HAVING cannot name the select list's aliases: the sums are written out there.
    ledgerIsEffects: statement<[], { item: string; available: number; effects: number; taken: number; receipts: number }>(name('ledgerIsEffects'), {
      sqlite: `SELECT i.item_id AS item, i.available AS available, i.version - ${ITEM_START.version} AS effects, coalesce(sum(l.qty), 0) AS taken, count(l.key) AS receipts
       FROM ${s}.items i LEFT JOIN ${s}.ledger l ON l.item_id = i.item_id
       GROUP BY i.item_id
       HAVING i.available != ${ITEM_START.available} - taken OR effects != receipts
       ORDER BY i.item_id`,
      postgres: `SELECT i.item_id AS item, i.available AS available, i.version - ${ITEM_START.version} AS effects, coalesce(sum(l.qty), 0)::bigint AS taken, count(l.key) AS receipts
       FROM items i LEFT JOIN ledger l ON l.item_id = i.item_id
       GROUP BY i.item_id
       HAVING i.available != ${ITEM_START.available} - coalesce(sum(l.qty), 0) OR i.version - ${ITEM_START.version} != count(l.key)
       ORDER BY i.item_id`,
    }),
    noReceipt: statement<[], { task_id: string }>(
      name('noReceipt'),
      on((p) => `SELECT task_id FROM ${p}tasks t WHERE state = 'done' AND NOT EXISTS (SELECT 1 FROM ${p}ledger l WHERE l.task_id = t.task_id) ORDER BY task_id`),
    ),
    failedWithEffect: statement<[], { task: string; status: string; effects: number }>(
      name('failedWithEffect'),
      on(
        (p) => `SELECT t.task_id AS task, t.result AS status, i.version - ${ITEM_START.version} AS effects FROM ${p}tasks t JOIN ${p}items i ON i.item_id = ${itemOfSql('t.task_id')}
       WHERE t.state = 'failed' AND t.result = 'tool_error' AND i.version != ${ITEM_START.version} ORDER BY t.task_id`,
      ),
    ),
    // The last line's status: json_extract on SQLite, ->> on PostgreSQL (the log holds JSON as text); SQLite's
    // `IS NOT` is PostgreSQL's `IS DISTINCT FROM`.
    logDisagrees: statement<[], { task: string; status: string; logged: string }>(name('logDisagrees'), {
      sqlite: `SELECT task, status, coalesce(logged, '-') AS logged FROM (
         SELECT t.task_id AS task, t.result AS status,
                (SELECT json_extract(e.state, '$.status') FROM ${s}.events e WHERE e.task_id = t.task_id ORDER BY e.seq DESC LIMIT 1) AS logged
         FROM ${s}.tasks t WHERE t.state IN ('done', 'failed'))
       WHERE logged IS NOT status ORDER BY task`,
      postgres: `SELECT task, status, coalesce(logged, '-') AS logged FROM (
         SELECT t.task_id AS task, t.result AS status,
                (SELECT e.state::jsonb ->> 'status' FROM events e WHERE e.task_id = t.task_id ORDER BY e.seq DESC LIMIT 1) AS logged
         FROM tasks t WHERE t.state IN ('done', 'failed')) AS finished
       WHERE logged IS DISTINCT FROM status ORDER BY task`,
    }),
    unfinished: statement<[], { task: string; state: string }>(
      name('unfinished'),
      on((p) => `SELECT task_id AS task, state FROM ${p}tasks WHERE state NOT IN ('done', 'failed') ORDER BY task_id`),
    ),
    finishedStale: statement<[], { task: string; finished: number | null; token: number }>(name('finishedStale'), {
      sqlite: `SELECT task_id AS task, finished_token AS finished, token FROM ${s}.tasks WHERE state IN ('done', 'failed') AND finished_token IS NOT token ORDER BY task_id`,
      postgres: `SELECT task_id AS task, finished_token AS finished, token FROM tasks WHERE state IN ('done', 'failed') AND finished_token IS DISTINCT FROM token ORDER BY task_id`,
    }),
    // Each line against the highest token of the lines before it in the same task's log.
    backwards: statement<[], { task: string; seq: number; token: number; before: number }>(
      name('backwards'),
      on(
        (p) => `SELECT task, seq, token, before FROM (
         SELECT task_id AS task, seq, token, max(token) OVER (PARTITION BY task_id ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
         FROM ${p}events) AS lines
       WHERE token < before ORDER BY task, seq`,
      ),
    ),
    // SQLite's group_concat is PostgreSQL's string_agg.
    shared: statement<[], { task: string; token: number; owners: string }>(name('shared'), {
      sqlite: `SELECT task_id AS task, token, group_concat(DISTINCT owner) AS owners FROM ${s}.events GROUP BY task_id, token HAVING count(DISTINCT owner) > 1 ORDER BY task_id, token`,
      postgres: `SELECT task_id AS task, token, string_agg(DISTINCT owner, ',') AS owners FROM events GROUP BY task_id, token HAVING count(DISTINCT owner) > 1 ORDER BY task_id, token`,
    }),
    reopened: statement<[], { task: string; state: string; finished: number }>(
      name('reopened'),
      on((p) => `SELECT task_id AS task, state, finished_token AS finished FROM ${p}tasks WHERE state IN ('queued', 'running') AND finished_token IS NOT NULL ORDER BY task_id`),
    ),
    states: statement<[], { state: string; n: number }>(name('states'), on((p) => `SELECT state, count(*) AS n FROM ${p}tasks GROUP BY state`)),
    effects: statement<[], { n: number }>(name('effects'), on((p) => `SELECT coalesce(sum(version - ${ITEM_START.version}), 0) AS n FROM ${p}items`)),
    receipts: statement<[], { n: number }>(name('receipts'), on((p) => `SELECT count(*) AS n FROM ${p}ledger`)),
    tasks: statement<[], { n: number }>(name('tasks'), on((p) => `SELECT count(*) AS n FROM ${p}tasks`)),
  };
}

const made = new Map<Schema, ReturnType<typeof checkStatements>>();
const sqlOf = (s: Schema) => made.get(s) ?? made.set(s, checkStatements(s)).get(s)!;

/** A connection as the checks take it: better-sqlite3's (run at once), or either database's. */
export type CheckDb = Database.Database | SqlConnection;

const connectionOf = (db: CheckDb): SqlConnection => ('dialect' in db ? db : SqliteSql.of(db));

/** Run checks on `db`: at once on SQLite, as a promise on PostgreSQL. */
export function runChecks<T>(db: SqliteSql | Database.Database, checks: Sql<T>): T;
export function runChecks<T>(db: CheckDb, checks: Sql<T>): T | Promise<T>;
export function runChecks<T>(db: CheckDb, checks: Sql<T>): T | Promise<T> {
  return connectionOf(db).run(checks);
}

/**
 * The checks of the tasks a schema holds. `final`: the run is over and drained — a task not finished is a lost
 * intent (while it runs, a task in flight is not).
 */
export function* taskChecks(s: Schema, final: boolean): Sql<FileCheck[]> {
  return [yield* doubleEffects(s), yield* ledgerIsEffects(s), yield* lostIntents(s, final), yield* fenceHeld(s)];
}

function* doubleEffects(s: Schema): Sql<FileCheck> {
  const rows = yield* all(sqlOf(s).doubleEffects);
  const first = rows[0];
  return verdict('double_effects', rows.length, first ? message<TortureCode>('torture.check.double_effects.found', { ...first }) : null);
}

function* ledgerIsEffects(s: Schema): Sql<FileCheck> {
  const rows = yield* all(sqlOf(s).ledgerIsEffects);
  const first = rows[0];
  return verdict('ledger_is_effects', rows.length, first ? message<TortureCode>('torture.check.ledger_is_effects.found', { ...first, start: ITEM_START.available }) : null);
}

function* lostIntents(s: Schema, final: boolean): Sql<FileCheck> {
  const q = sqlOf(s);
  const noReceipt = (yield* all(q.noReceipt)).map((row) => row.task_id);
  // A refusal (a ContractError ends the run as tool_error) changed nothing: with its item moved, the intent took
  // effect and is reported failed — a human would make it again.
  const failedWithEffect = yield* all(q.failedWithEffect);
  // The log is what a new holder recovers from: a finished task's last line holds the status it finished with.
  const logDisagrees = yield* all(q.logDisagrees);
  const unfinished = final ? yield* all(q.unfinished) : [];
  const first =
    noReceipt.length > 0
      ? message<TortureCode>('torture.check.lost_intents.noReceipt', { task: noReceipt[0]! })
      : failedWithEffect[0]
        ? message<TortureCode>('torture.check.lost_intents.failedWithEffect', { ...failedWithEffect[0] })
        : logDisagrees[0]
          ? message<TortureCode>('torture.check.lost_intents.logDisagrees', { ...logDisagrees[0] })
          : unfinished[0]
            ? message<TortureCode>('torture.check.lost_intents.unfinished', { ...unfinished[0] })
            : null;
  return verdict('lost_intents', noReceipt.length + failedWithEffect.length + logDisagrees.length + unfinished.length, first);
}

/** Every task the producer made is in the schemas given (the live file and its archive, or PostgreSQL's one schema): none vanished. */
export function* allAccountedFor(schemas: readonly Schema[], enqueued: number): Sql<FileCheck> {
  let found = 0;
  for (const s of schemas) found += (yield* get(sqlOf(s).tasks))!.n;
  return verdict('lost_intents', Math.max(0, enqueued - found), message<TortureCode>('torture.check.lost_intents.missing', { enqueued, found }));
}

function* fenceHeld(s: Schema): Sql<FileCheck> {
  const q = sqlOf(s);
  const finishedStale = yield* all(q.finishedStale);
  const backwards = yield* all(q.backwards);
  // Every grant's token is new (the previous plus one): lines of one token from two workers are two holders of one grant.
  const shared = yield* all(q.shared);
  // A finished task keeps its finisher's token; queued or running again, it was opened again (a rescue by id only).
  const reopened = yield* all(q.reopened);
  const stale = finishedStale[0];
  const first = stale
    ? message<TortureCode>('torture.check.fence.finishedStale', { task: stale.task, finished: stale.finished ?? '-', token: stale.token })
    : backwards[0]
      ? message<TortureCode>('torture.check.fence.logBackwards', { ...backwards[0] })
      : shared[0]
        ? message<TortureCode>('torture.check.fence.sharedToken', { ...shared[0] })
        : reopened[0]
          ? message<TortureCode>('torture.check.fence.reopened', { ...reopened[0] })
          : null;
  return verdict('fence', finishedStale.length + backwards.length + shared.length + reopened.length, first);
}

/**
 * The verdicts of several checks made one after another, each a list of verdicts that together cover the file at
 * that moment (one per schema): within a moment the breaches add up; across moments a check held only if it held
 * every time, its first breach is the earliest, and its count the most any one moment found (a breach stays in the
 * live file once found: later checks find it again).
 */
export function combine(moments: ReadonlyArray<readonly FileCheck[]>): FileCheck[] {
  const perMoment = moments.map((checks) => new Map(TORTURE_CHECKS.flatMap(({ id }) => {
    const mine = checks.filter((check) => check.id === id);
    return mine.length === 0 ? [] : [[id, { found: mine.reduce((sum, check) => sum + check.found, 0), first: mine.find((check) => check.first !== null)?.first ?? null }] as const];
  })));
  return TORTURE_CHECKS.flatMap(({ id }) => {
    const seen = perMoment.flatMap((moment) => (moment.has(id) ? [moment.get(id)!] : []));
    if (seen.length === 0) return [];
    return [verdict(id, Math.max(...seen.map((one) => one.found)), seen.find((one) => one.first !== null)?.first ?? null)];
  });
}

/** What a schema holds. */
export function* fileFigures(s: Schema): Sql<FileFigures> {
  const q = sqlOf(s);
  const states = new Map((yield* all(q.states)).map((row) => [row.state, row.n]));
  const effects = (yield* get(q.effects))!.n;
  const receipts = (yield* get(q.receipts))!.n;
  return { queued: states.get('queued') ?? 0, running: states.get('running') ?? 0, done: states.get('done') ?? 0, failed: states.get('failed') ?? 0, effects, receipts };
}

/** Two schemas' figures together. */
export function addFigures(a: FileFigures, b: FileFigures): FileFigures {
  return { queued: a.queued + b.queued, running: a.running + b.running, done: a.done + b.done, failed: a.failed + b.failed, effects: a.effects + b.effects, receipts: a.receipts + b.receipts };
}
