/**
 * What the queue's events say, in words (many workers, docs/spec.md §10–12): a claim and its grant (the token,
 * the lease's expiry), a holder's renewal and completion, a refused write and the zombie it stops, the queue's
 * table as the harness saw it change, the sweep, a lease running out, a pause and its waking, a wait for a lock.
 * Each line is in the lane of the worker (or the sweeper) whose event it is; narrate.ts stamps that on every line.
 */
import type { RunResult } from '../check/RunResult.js';
import { t, toolText, type Lang } from './words/index.js';
import type { TaskView, TraceEventOf } from '../sim/events.js';
import { note, type Line } from './lines.js';

type WorkerEventType = 'started' | 'claim' | 'holder' | 'save_refused' | 'lease_lost' | 'tasks' | 'sweep' | 'lease_expired' | 'paused' | 'woke' | 'starved' | 'busy';

type Narrator<K extends WorkerEventType> = (lang: Lang, event: TraceEventOf<K>, index: number, run: RunResult) => Line[];

/** A task's row in a few words: `running w1 · token 1 · until 500ms`, `queued · token 1`, `done · token 2`. */
export function taskView(lang: Lang, view: TaskView | null): string {
  if (view === null) return t(lang, 'workers.view.none');
  if (view.state === 'running') return t(lang, 'workers.view.running', { owner: String(view.owner), token: view.token, until: view.leaseUntil ?? 0 });
  if (view.state === 'queued') return t(lang, 'workers.view.queued', { token: view.token });
  return t(lang, 'workers.view.finished', { state: view.state, token: view.finishedToken ?? view.token });
}

export const WORKER_NARRATORS: { [K in WorkerEventType]: Narrator<K> } = {
  started: (lang, event, i) => (event.life === 1 ? [] : [note(i, 'runner', [t(lang, 'workers.started', { life: event.life }), 'okStrong'])]),
  claim: (lang, event, i, run) => {
    const g = event.granted;
    if (g === null) return [note(i, 'events', [t(lang, 'workers.claim.none', { poll: run.workers?.pollMs ?? 0 }), 'dim'])];
    const lines = [note(i, 'events', [t(lang, 'workers.claim.granted', { task: g.task, token: g.token, until: g.leaseUntil }), 'okStrong'])];
    if (g.reclaim) lines.push(note(i, 'events', [`  ${t(lang, 'workers.claim.reclaim')}`, 'dim']));
    return lines;
  },
  holder: (lang, event, i) => {
    if (!event.ok) return [note(i, 'events', [t(lang, 'workers.holder.refused', { op: event.op, token: event.token }), 'badStrong'], [toolText(lang, event.message ?? ''), 'bad'])];
    if (event.op === 'renew') return [note(i, 'events', [t(lang, 'workers.holder.renewed', { until: event.leaseUntil ?? 0, token: event.token }), 'dim'])];
    return [note(i, 'events', [t(lang, event.op === 'complete' ? 'workers.holder.completed' : 'workers.holder.failed', { task: event.task, token: event.token, result: event.result ?? '' }), event.op === 'complete' ? 'okStrong' : 'bad'])];
  },
  save_refused: (lang, event, i) => [note(i, 'events', [t(lang, 'workers.saveRefused', { label: event.label, token: event.token }), 'badStrong'], [toolText(lang, event.message), 'bad'])],
  lease_lost: (lang, event, i) => [note(i, 'runner', [t(lang, 'workers.leaseLost', { task: event.task, token: event.token }), 'warn'])],
  tasks: (lang, event, i) => event.changes.map((c) => ({ ...note(i, 'db', [t(lang, 'workers.tasks', { task: c.task, from: taskView(lang, c.from), to: taskView(lang, c.to) }), 'db']), truth: true as const })),
  sweep: (lang, event, i) =>
    event.returned.map((r) => note(i, 'events', [t(lang, 'workers.sweep', { task: r.task, owner: r.owner, token: r.token, at: r.leaseUntil }), 'warn'])),
  lease_expired: (lang, event, i) => [note(i, 'events', [t(lang, 'workers.leaseExpired', { task: event.task, owner: event.owner, token: event.token, at: event.at }), 'warn'])],
  paused: (lang, event, i) => [note(i, 'runner', [t(lang, event.why === 'lease_expires' ? 'workers.stalled' : 'workers.paused', { until: event.until }), 'fault'])],
  woke: (lang, event, i) => [note(i, 'runner', [t(lang, 'workers.woke', { ms: event.t - event.pausedAt }), 'warn'])],
  starved: (lang, event, i) => [note(i, 'runner', [t(lang, 'workers.starved', { until: event.until }), 'fault'])],
  busy: (lang, event, i) => [note(i, 'events', [t(lang, 'workers.busy', { op: event.op }), 'dim'])],
};

/** A worker's session begins by reading the task's log: what it takes over from. */
export function workerRecovered(lang: Lang, event: TraceEventOf<'recovered'>, index: number): Line[] {
  const st = event.state;
  const where = event.seq === null ? t(lang, 'trace.recovered.emptyLog') : t(lang, 'trace.recovered.event', { seq: event.seq });
  const what =
    st === null
      ? t(lang, 'workers.recovered.fresh')
      : st.status !== 'running'
        ? t(lang, 'workers.recovered.ended', { status: st.status })
        : st.pending
          ? t(lang, 'trace.recovered.pending', { name: st.pending.name, attempts: st.attempts, calls: st.calls })
          : t(lang, 'trace.recovered.nothingPending', { calls: st.calls });
  return [note(index, 'runner', [t(lang, 'workers.recovered', { where, what }), 'okStrong'])];
}

/** The token a receipt was committed under, for the db line of its effect. */
export function receiptToken(run: RunResult, keys: readonly string[]): number | null {
  const tokens = run.workers?.tokens;
  if (tokens === undefined) return null;
  for (const key of keys) {
    const row = tokens.find((r) => r.key === key);
    if (row !== undefined) return row.token;
  }
  return null;
}
