/**
 * The queue's invariants (docs/spec.md §12), checked after every many-worker run beside the seven. Each reads
 * what the harness saw — the queue's table as committed (`tasks` events), the tool's effects, every request on
 * the wire, who was alive when — never what a store or a worker says of itself. Each is killed by a mutant of
 * src/mutants/queueStores.ts; every message says what was expected, what happened, and why that breaks the rule.
 */
import { TOOL_LATENCY_MS } from '../core/defaults.js';
import { message, type Message } from '../core/message.js';
import { shortKey } from '../core/key.js';
import type { TaskView, TraceEvent } from '../sim/events.js';
import type { Run } from '../sim/Run.js';
import { analyze, type Analysis } from './analysis.js';
import type { CheckCode } from './codes.js';
import type { Check, CheckMessage } from './types.js';
import { isGrant } from './workerFigures.js';

/** The six, in order, each with its title (a message: the renderers word it). */
export const QUEUE_INVARIANTS = [
  { id: 'inv8_one_live_holder', title: message('check.inv8.title') },
  { id: 'inv9_token_plus_one', title: message('check.inv9.title') },
  { id: 'inv10_no_stale_token', title: message('check.inv10.title') },
  { id: 'inv11_finished_stays_finished', title: message('check.inv11.title') },
  { id: 'inv12_budgets_across_workers', title: message('check.inv12.title') },
  { id: 'inv13_no_stranded_task', title: message('check.inv13.title') },
] as const;

export type QueueInvariantId = (typeof QUEUE_INVARIANTS)[number]['id'];

const QUEUE_IDS: ReadonlySet<string> = new Set(QUEUE_INVARIANTS.map((inv) => inv.id));

/** Is this one of the queue's invariants (as opposed to the chapter's seven)? */
export function isQueueInvariant(id: string): boolean {
  return QUEUE_IDS.has(id);
}

function verdict(id: QueueInvariantId, problems: Problems, expected: string, ok: CheckMessage): Check {
  const title = QUEUE_INVARIANTS.find((inv) => inv.id === id)!.title;
  return { id, kind: 'invariant', title, passed: problems.length === 0, expected, actual: problems.length === 0 ? 'held' : 'broken', message: problems[0] ?? ok };
}

/** Every change of a task's row, in order, with its time. */
function changes(run: Run): Array<{ t: number; task: string; from: TaskView | null; to: TaskView | null }> {
  return run.trace.flatMap((e) => (e.type === 'tasks' ? e.changes.map((c) => ({ t: e.t, ...c })) : []));
}

type Problems = Array<Message<CheckCode>>;

const finished = (view: TaskView | null) => view?.state === 'done' || view?.state === 'failed';

/** 8. No grant while another worker's lease on the task still runs (unexpired, not released by a completion, a failure or the sweep). */
export function inv8(run: Run): Check {
  const problems: Problems = [];
  for (const { t: at, task, from, to } of changes(run)) {
    if (!isGrant({ task, from, to }) || from?.state !== 'running' || from.owner === to!.owner || (from.leaseUntil ?? 0) <= at) continue;
    problems.push(message('check.inv8.twoHolders', { task, to: String(to!.owner), token: to!.token, at, from: String(from.owner), fromToken: from.token, until: from.leaseUntil ?? 0 }));
  }
  return verdict('inv8_one_live_holder', problems, 'one live holder per task', message('check.inv8.ok'));
}

/** 9. Every grant carries the task's previous token plus one, and the token changes at no other moment. */
export function inv9(run: Run): Check {
  const problems: Problems = [];
  for (const { t: at, task, from, to } of changes(run)) {
    if (from === null || to === null) continue;
    const grant = isGrant({ task, from, to });
    if (grant && to.token !== from.token + 1) problems.push(message('check.inv9.grant', { task, owner: String(to.owner), token: to.token, previous: from.token, at }));
    else if (!grant && to.token !== from.token) problems.push(message('check.inv9.moved', { task, from: from.token, to: to.token, at }));
  }
  // A re-claim by the same worker is a grant too (its claim's reply was lost, or a crash ended the life that held
  // it): the table shows only a new lease, so the claims the harness read back say it — each a token of its own.
  const last = new Map<string, number>();
  for (const event of run.trace) {
    if (event.type !== 'claim' || event.granted === null) continue;
    const { task, token, reclaim } = event.granted;
    const previous = last.get(task);
    if (reclaim && previous !== undefined && token <= previous) problems.push(message('check.inv9.reclaim', { task, owner: event.worker ?? '?', token, previous, at: event.t }));
    last.set(task, Math.max(previous ?? 0, token));
  }
  return verdict('inv9_token_plus_one', problems, 'token + 1 on every grant', message('check.inv9.ok'));
}

/** 10. No effect and no ledger row carries a token older than the task's holder's at its commit. */
export function inv10(run: Run): Check {
  const problems: Problems = [];
  const tokens = new Map((run.workers?.tokens ?? []).map((row) => [row.key, row]));
  const holder = new Map<string, TaskView>();
  for (const event of run.trace) {
    if (event.type === 'tasks') for (const c of event.changes) if (c.to !== null) holder.set(c.task, c.to);
    if (event.type !== 'db' || !event.committed) continue;
    for (const row of event.diff.ledgerAdded) {
      const written = tokens.get(row.key);
      const now = holder.get(row.task_id);
      if (written === undefined || now === undefined || written.token >= now.token) continue;
      problems.push(message('check.inv10.stale', { writer: written.owner, key: shortKey(row.key), token: written.token, holder: String(now.owner), current: now.token, at: event.t }));
    }
  }
  return verdict('inv10_no_stale_token', problems, "every effect under its holder's token", message('check.inv10.ok'));
}

/** 11. A finished task (done, failed) never changes again: no state, no owner, no token, no finisher. */
export function inv11(run: Run): Check {
  const problems: Problems = [];
  for (const { t: at, task, from, to } of changes(run)) {
    if (!finished(from)) continue;
    problems.push(message('check.inv11.changed', { task, was: stateOf(from!), now: to === null ? message('check.inv11.gone') : stateOf(to), at }));
  }
  return verdict('inv11_finished_stays_finished', problems, 'finished stays finished', message('check.inv11.ok'));
}

/** A task's state with the token it is under: its holder's, or the one it finished under. */
function stateOf(view: TaskView): CheckMessage {
  const finishedUnder = view.state !== 'running' && view.state !== 'queued';
  return message('check.inv11.state', { state: view.state, token: finishedUnder ? (view.finishedToken ?? view.token) : view.token });
}

/** 12. Across every worker, the task's requests stay within max_calls, and each pending action's attempts within max_retries + 1. */
export function inv12(run: Run, analysis: Analysis = analyze(run)): Check {
  const { max_calls, max_retries } = run.scenario.task;
  const problems: Problems = [];
  const mine = analysis.attempts;
  const byWorker = new Map<string, number>();
  for (const a of mine) byWorker.set(run.trace[a.at]!.worker ?? '?', (byWorker.get(run.trace[a.at]!.worker ?? '?') ?? 0) + 1);
  if (mine.length > max_calls) {
    const who = [...byWorker].map(([worker, n]) => `${worker} ${n}`).join(', ');
    problems.push(message('check.inv12.calls', { calls: mine.length, max: max_calls, who }));
  }
  const perAction = new Map<string, number>();
  for (const a of mine) {
    if (a.pending === null) continue;
    const id = `${a.decision}`;
    perAction.set(id, (perAction.get(id) ?? 0) + 1);
    const n = perAction.get(id)!;
    if (n === max_retries + 2) problems.push(message('check.inv12.attempts', { name: a.action.name, attempts: n, max: max_retries + 1 }));
  }
  return verdict('inv12_budgets_across_workers', problems, `<= ${max_calls} calls, <= ${max_retries + 1} attempts per action, all workers together`, message('check.inv12.ok', { calls: mine.length, max: max_calls }));
}

/**
 * 13. With a live worker, no task is stranded: once a task has no live holder (its lease expired, or it is back
 * in the queue) it is granted again within one sweep and one poll — or finished; and a run does not stop with a
 * task unfinished while a worker lives.
 */
export function inv13(run: Run): Check {
  const problems: Problems = [];
  const w = run.workers;
  if (w === undefined) return verdict('inv13_no_stranded_task', problems, 'no stranded task', message('check.inv13.ok'));
  const bound = w.sweepEveryMs + w.pollMs + TOOL_LATENCY_MS.max;
  const live = liveness(run.trace, w.names);
  // When each task last stopped having a live holder, if it has none now.
  const since = new Map<string, number>();
  const view = new Map<string, TaskView>();
  const look = (task: string, until: number) => {
    const from = since.get(task);
    if (from === undefined) return;
    const waited = live(from, until);
    if (waited > bound) problems.push(message('check.inv13.stranded', { task, from, waited: Math.round(waited), bound }));
    since.delete(task);
  };
  for (const event of run.trace) {
    for (const [task, v] of view) if (v.state === 'running' && v.leaseUntil !== null && v.leaseUntil <= event.t && !since.has(task)) since.set(task, v.leaseUntil);
    if (event.type !== 'tasks') continue;
    for (const { task, to } of event.changes) {
      if (to === null) continue;
      view.set(task, to);
      if (finished(to) || (to.state === 'running' && (to.leaseUntil ?? 0) > event.t)) look(task, event.t);
      else if (to.state === 'queued' && !since.has(task)) since.set(task, event.t);
    }
  }
  const end = run.trace.at(-1)?.t ?? 0;
  for (const task of since.keys()) look(task, end);
  const unfinished = w.tasks.filter((row) => row.state !== 'done' && row.state !== 'failed');
  if (w.cut !== null && unfinished.length > 0 && live(end, end + 1) > 0) {
    problems.push(message('check.inv13.cut', { task: unfinished[0]!.task_id, state: unfinished[0]!.state, token: unfinished[0]!.token, turns: w.turns }));
  }
  return verdict('inv13_no_stranded_task', problems, 'no stranded task', message('check.inv13.ok'));
}

/**
 * How long, within [from, until), at least one worker was alive and running (not crashed, not paused): from the
 * trace's crash, started, paused and woke events. A worker is alive from the start.
 */
function liveness(trace: readonly TraceEvent[], names: readonly string[]): (from: number, until: number) => number {
  const down = new Map<string, Array<[number, number]>>(names.map((n) => [n, []]));
  const since = new Map<string, number>();
  for (const e of trace) {
    if (e.worker === undefined || !down.has(e.worker)) continue;
    if ((e.type === 'crash' || e.type === 'paused') && !since.has(e.worker)) since.set(e.worker, e.t);
    else if ((e.type === 'started' || e.type === 'woke') && since.has(e.worker)) {
      down.get(e.worker)!.push([since.get(e.worker)!, e.t]);
      since.delete(e.worker);
    }
  }
  for (const [worker, from] of since) down.get(worker)!.push([from, Number.POSITIVE_INFINITY]);
  const alive = (name: string, x: number) => !down.get(name)!.some(([a, b]) => a <= x && x < b);
  return (from, until) => {
    // The moments where anything changes; between two of them every worker's state holds.
    const marks = [from, until, ...[...down.values()].flat(2)].filter((x) => x >= from && x <= until).sort((a, b) => a - b);
    let total = 0;
    for (let i = 0; i + 1 < marks.length; i += 1) {
      const [a, b] = [marks[i]!, marks[i + 1]!];
      if (b > a && names.some((n) => alive(n, a))) total += b - a;
    }
    return total;
  };
}

/** The six, for a many-worker run (none for one runner: its trace and checks stay the chapter's). */
export function checkQueueInvariants(run: Run, analysis: Analysis): Check[] {
  if (run.workers === undefined) return [];
  return [inv8(run), inv9(run), inv10(run), inv11(run), inv12(run, analysis), inv13(run)];
}
