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
 */
import type Database from 'better-sqlite3';
import { message, type Message } from '../core/message.js';
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

/**
 * The checks of the tasks a schema holds. `final`: the run is over and drained — a task not finished is a lost
 * intent (while it runs, a task in flight is not).
 */
export function taskChecks(db: Database.Database, schema: Schema, final: boolean): FileCheck[] {
  return [doubleEffects(db, schema), ledgerIsEffects(db, schema), lostIntents(db, schema, final), fenceHeld(db, schema)];
}

function doubleEffects(db: Database.Database, s: Schema): FileCheck {
  const rows = db
    .prepare(
      `SELECT task, effects, receipts FROM (
         SELECT t.task_id AS task, i.version - ${ITEM_START.version} AS effects, (SELECT count(*) FROM ${s}.ledger l WHERE l.task_id = t.task_id) AS receipts
         FROM ${s}.tasks t JOIN ${s}.items i ON i.item_id = ${itemOfSql('t.task_id')})
       WHERE effects > 1 OR receipts > 1 ORDER BY task`,
    )
    .all() as Array<{ task: string; effects: number; receipts: number }>;
  const first = rows[0];
  return verdict('double_effects', rows.length, first ? message<TortureCode>('torture.check.double_effects.found', { ...first }) : null);
}

function ledgerIsEffects(db: Database.Database, s: Schema): FileCheck {
  const rows = db
    .prepare(
      `SELECT i.item_id AS item, i.available AS available, i.version - ${ITEM_START.version} AS effects, coalesce(sum(l.qty), 0) AS taken, count(l.key) AS receipts
       FROM ${s}.items i LEFT JOIN ${s}.ledger l ON l.item_id = i.item_id
       GROUP BY i.item_id
       HAVING i.available != ${ITEM_START.available} - taken OR effects != receipts
       ORDER BY i.item_id`,
    )
    .all() as Array<{ item: string; available: number; effects: number; taken: number; receipts: number }>;
  const first = rows[0];
  return verdict('ledger_is_effects', rows.length, first ? message<TortureCode>('torture.check.ledger_is_effects.found', { ...first, start: ITEM_START.available }) : null);
}

function lostIntents(db: Database.Database, s: Schema, final: boolean): FileCheck {
  const noReceipt = db
    .prepare(`SELECT task_id FROM ${s}.tasks t WHERE state = 'done' AND NOT EXISTS (SELECT 1 FROM ${s}.ledger l WHERE l.task_id = t.task_id) ORDER BY task_id`)
    .pluck()
    .all() as string[];
  // A refusal (a ContractError ends the run as tool_error) changed nothing: with its item moved, the intent took
  // effect and is reported failed — a human would make it again.
  const failedWithEffect = db
    .prepare(
      `SELECT t.task_id AS task, t.result AS status, i.version - ${ITEM_START.version} AS effects FROM ${s}.tasks t JOIN ${s}.items i ON i.item_id = ${itemOfSql('t.task_id')}
       WHERE t.state = 'failed' AND t.result = 'tool_error' AND i.version != ${ITEM_START.version} ORDER BY t.task_id`,
    )
    .all() as Array<{ task: string; status: string; effects: number }>;
  // The log is what a new holder recovers from: a finished task's last line holds the status it finished with.
  const logDisagrees = db
    .prepare(
      `SELECT task, status, coalesce(logged, '-') AS logged FROM (
         SELECT t.task_id AS task, t.result AS status,
                (SELECT json_extract(e.state, '$.status') FROM ${s}.events e WHERE e.task_id = t.task_id ORDER BY e.seq DESC LIMIT 1) AS logged
         FROM ${s}.tasks t WHERE t.state IN ('done', 'failed'))
       WHERE logged IS NOT status ORDER BY task`,
    )
    .all() as Array<{ task: string; status: string; logged: string }>;
  const unfinished = final ? (db.prepare(`SELECT task_id AS task, state FROM ${s}.tasks WHERE state NOT IN ('done', 'failed') ORDER BY task_id`).all() as Array<{ task: string; state: string }>) : [];
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

/** Every task the producer made is in one of the two schemas: none vanished. */
export function allAccountedFor(db: Database.Database, enqueued: number): FileCheck {
  const found = db.prepare('SELECT (SELECT count(*) FROM main.tasks) + (SELECT count(*) FROM archive.tasks)').pluck().get() as number;
  return verdict('lost_intents', Math.max(0, enqueued - found), message<TortureCode>('torture.check.lost_intents.missing', { enqueued, found }));
}

function fenceHeld(db: Database.Database, s: Schema): FileCheck {
  const finishedStale = db
    .prepare(`SELECT task_id AS task, finished_token AS finished, token FROM ${s}.tasks WHERE state IN ('done', 'failed') AND finished_token IS NOT token ORDER BY task_id`)
    .all() as Array<{ task: string; finished: number | null; token: number }>;
  // Each line against the highest token of the lines before it in the same task's log.
  const backwards = db
    .prepare(
      `SELECT task, seq, token, before FROM (
         SELECT task_id AS task, seq, token, max(token) OVER (PARTITION BY task_id ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
         FROM ${s}.events)
       WHERE token < before ORDER BY task, seq`,
    )
    .all() as Array<{ task: string; seq: number; token: number; before: number }>;
  // Every grant's token is new (the previous plus one): lines of one token from two workers are two holders of one grant.
  const shared = db
    .prepare(`SELECT task_id AS task, token, group_concat(DISTINCT owner) AS owners FROM ${s}.events GROUP BY task_id, token HAVING count(DISTINCT owner) > 1 ORDER BY task_id, token`)
    .all() as Array<{ task: string; token: number; owners: string }>;
  // A finished task keeps its finisher's token; queued or running again, it was opened again (a rescue by id only).
  const reopened = db
    .prepare(`SELECT task_id AS task, state, finished_token AS finished FROM ${s}.tasks WHERE state IN ('queued', 'running') AND finished_token IS NOT NULL ORDER BY task_id`)
    .all() as Array<{ task: string; state: string; finished: number }>;
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
export function fileFigures(db: Database.Database, s: Schema): FileFigures {
  const states = new Map((db.prepare(`SELECT state, count(*) AS n FROM ${s}.tasks GROUP BY state`).all() as Array<{ state: string; n: number }>).map((row) => [row.state, row.n]));
  const effects = db.prepare(`SELECT coalesce(sum(version - ${ITEM_START.version}), 0) FROM ${s}.items`).pluck().get() as number;
  const receipts = db.prepare(`SELECT count(*) FROM ${s}.ledger`).pluck().get() as number;
  return { queued: states.get('queued') ?? 0, running: states.get('running') ?? 0, done: states.get('done') ?? 0, failed: states.get('failed') ?? 0, effects, receipts };
}

/** Two schemas' figures together. */
export function addFigures(a: FileFigures, b: FileFigures): FileFigures {
  return { queued: a.queued + b.queued, running: a.running + b.running, done: a.done + b.done, failed: a.failed + b.failed, effects: a.effects + b.effects, receipts: a.receipts + b.receipts };
}
