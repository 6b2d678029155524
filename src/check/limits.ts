/**
 * The invariants of the chapter's limits (docs/spec.md §13–§14), judged on every run of a scenario that reaches
 * past the chapter — receipts that expire, a task delivered again, a remote service — and only there, so the
 * 17's checks stay exactly the seven they were. (inv8–inv13 are the task queue's, §12: these are 14 and 15.)
 *
 * 14. One intent, at most one effect — judged from what the tools truly did, not from the ledger a purge thins
 *    out: the inventory's `history` (never purged) and the remote service's own `charges`.
 * 15. Every intent ends whole: a reservation still held is paid for, and nothing is paid for that is not held —
 *    done, or fully compensated, never half.
 */
import { shortKey } from '../core/key.js';
import { message, type Message } from '../core/message.js';
import type { HistoryRow } from '../inventory/snapshot.js';
import { usesLimits } from '../scenario/types.js';
import type { Run } from '../sim/Run.js';
import type { CheckCode } from './codes.js';
import type { Check } from './types.js';

export const LIMIT_INVARIANTS = [
  { id: 'inv14_one_effect_in_history', title: message('limits.check.inv14.title') },
  { id: 'inv15_intent_ends_whole', title: message('limits.check.inv15.title') },
] as const;

export type LimitInvariantId = (typeof LIMIT_INVARIANTS)[number]['id'];

type Problems = Array<Message<CheckCode>>;

function verdict(id: LimitInvariantId, problems: Problems, expected: string, actual: string, ok: Message<CheckCode>): Check {
  const title = LIMIT_INVARIANTS.find((inv) => inv.id === id)!.title;
  return { id, kind: 'invariant', title, passed: problems.length === 0, expected, actual, message: problems[0] ?? ok };
}

/** The limits' invariants a run is judged by: none for the chapter's scenarios, inv15 only where a remote step can be half done. */
export function checkLimitInvariants(run: Run): Check[] {
  if (!usesLimits(run.scenario)) return [];
  return [inv14(run), ...(run.scenario.remote !== undefined ? [inv15(run)] : [])];
}

/** The receipts the tool's purge deleted, in the order it did (the trace says each). */
export function purgedReceipts(run: Pick<Run, 'trace'>) {
  return run.trace.flatMap((event) => (event.type === 'purge' ? event.removed : []));
}

const at = (row: HistoryRow) => `${row.at_ms} ms`;

/** 14. Each key at most one effect in the history, each task no more reservations than its intents, each reference one charge; stock = initial + history. */
export function inv14(run: Run): Check {
  const problems: Problems = [];
  const history = run.db.history ?? [];
  const purged = new Map(purgedReceipts(run).map((row) => [row.key, row]));
  const byKey = new Map<string, HistoryRow[]>();
  for (const row of history) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row]);
  for (const [key, rows] of byKey) {
    if (rows.length < 2) continue;
    const gone = purged.get(key);
    problems.push(
      gone !== undefined
        ? message('limits.check.inv14.twiceAcrossPurge', { key: shortKey(key), n: rows.length, times: rows.map(at).join(', '), written: gone.created_at_ms })
        : message('limits.check.inv14.twice', { key: shortKey(key), n: rows.length, times: rows.map(at).join(', ') }),
    );
  }
  const task = run.scenario.task.id;
  const intents = run.scenario.script.filter((s) => s.kind === 'tool' && s.name === 'reserve').length;
  const reservations = history.filter((row) => row.task_id === task && row.delta < 0).length;
  if (reservations > intents && problems.length === 0) problems.push(message('limits.check.inv14.tooMany', { task, n: reservations, intents }));
  for (const row of run.db.items) {
    const initial = run.scenario.inventory.items[row.item_id];
    if (initial === undefined) continue;
    const want = initial.available + history.filter((h) => h.item_id === row.item_id).reduce((sum, h) => sum + h.delta, 0);
    if (row.available !== want) problems.push(message('limits.check.inv14.unrecorded', { item: row.item_id, available: row.available, want, initial: initial.available }));
  }
  const byRef = new Map<string, string[]>();
  for (const charge of run.db.charges ?? []) byRef.set(charge.ref, [...(byRef.get(charge.ref) ?? []), charge.charge_id]);
  for (const [ref, ids] of byRef) if (ids.length > 1) problems.push(message('limits.check.inv14.chargedTwice', { ref, n: ids.length, ids: ids.join(', ') }));
  const effects = history.length + (run.db.charges?.length ?? 0);
  return verdict('inv14_one_effect_in_history', problems, 'at most one effect per intent, purged receipts included', `${effects} effect(s)`, message('limits.check.inv14.ok', { n: effects }));
}

/** The references the task's charges go by: the ones its runner sent, and its outbox's messages. */
function taskRefs(run: Run): Set<string> {
  const refs = new Set<string>();
  for (const event of run.trace) {
    if (event.type === 'request' && event.by === 'runner' && event.action.name === 'charge' && typeof event.action.args.ref === 'string') refs.add(event.action.args.ref);
  }
  for (const row of run.db.outbox ?? []) if (row.task_id === run.scenario.task.id) refs.add(row.ref);
  return refs;
}

/** 15. Reservations still held (history: reserved − released) equal the task's references that were charged. */
export function inv15(run: Run): Check {
  const problems: Problems = [];
  const task = run.scenario.task.id;
  const history = (run.db.history ?? []).filter((row) => row.task_id === task);
  const held = history.filter((row) => row.delta < 0).length - history.filter((row) => row.delta > 0).length;
  const charges = run.db.charges ?? [];
  const refs = taskRefs(run);
  const paid = [...refs].filter((ref) => charges.some((charge) => charge.ref === ref)).length;
  const unsettled = (run.db.outbox ?? []).filter((row) => row.task_id === task && (row.outcome === null || row.outcome === 'gave_up'));
  if (held > paid) {
    problems.push(
      unsettled.length > 0
        ? message('limits.check.inv15.unsent', { held, paid, ids: unsettled.map((row) => row.id).join(', ') })
        : message('limits.check.inv15.unpaid', { held, paid }),
    );
  } else if (paid > held) {
    problems.push(message('limits.check.inv15.paidNotHeld', { held, paid, refs: [...refs].filter((ref) => charges.some((c) => c.ref === ref)).join(', ') }));
  }
  const state: 'done' | 'compensated' | 'nothing' = held === 0 && paid === 0 ? (history.length > 0 ? 'compensated' : 'nothing') : 'done';
  return verdict('inv15_intent_ends_whole', problems, 'reservations held = references charged', `held ${held}, charged ${paid}`, message(`limits.check.inv15.ok.${state}`, { held }));
}
