/**
 * What a run's trace says, in words, once — for every renderer. Each trace event becomes one or more lines
 * of text runs with a tone (what the words mean: a refusal, a warning, the database), and a lane (whose side
 * the line belongs to: the runner, its event store, the wire, the tool, the tool's database). The terminal
 * paints tones with chalk and ignores lanes; the HTML timeline turns tones into classes and lanes into
 * columns. What the runner believed and what the tool truly did at each event are read from the run's
 * analysis (src/check/analysis.ts), never rebuilt here. One more event kind is one more function in
 * NARRATORS; a kind it does not know is still told, as a plain line, never dropped and never a crash.
 */
import type { RunResult } from '../check/RunResult.js';
import { describeFault } from '../faults/types.js';
import { reserveKey } from '../inventory/keys.js';
import type { RunnerState } from '../runner/state.js';
import type { TraceEvent, TraceEventOf, TraceEventType } from '../sim/events.js';
import type { DurabilityEvent } from '../durability/events.js';
import { describeDurabilityEvent } from './durabilityEvent.js';
import { formatAction, formatDiff, formatReply, GLUE, traceKey, type KeyFormat } from './format.js';
import { shortKey } from '../core/key.js';
import { KEYLESS_TOOLS } from '../inventory/PaymentService.js';
import { analyze, type DbTruth, type EventView } from '../check/analysis.js';
import type { Label } from '../check/label.js';
import { t, type Lang } from './words/index.js';
import { toolText } from './words/index.js';
import type { Tone } from './tone.js';
import { note, type Lane, type Line, type Part } from './lines.js';
import { receiptToken, WORKER_NARRATORS, workerRecovered } from './narrateWorkers.js';

export type { Tone } from './tone.js';

export type { Lane, Line, Part } from './lines.js';

interface Ctx {
  lang: Lang;
  run: RunResult;
  key: KeyFormat;
  /** The last refusal the runner was told of, to flag an attempt that repeats it. */
  refusedBy: string | null;
}

/** Each narrator reads its event and the run's analysis at that event (what was saved, told, true). */
type Narrator<E> = (event: E, index: number, ctx: Ctx, at: EventView) => Line[];

/**
 * The state the runner believes as an event happens: what it last saved or read back, in this delivery of the
 * task — a replay's fresh runner has read nothing of the run before it.
 */
function believed(at: EventView): RunnerState | null {
  const saved = at.before;
  return saved !== null && saved.delivery === at.delivery ? saved.state : null;
}

const NARRATORS: { [K in TraceEventType]: Narrator<TraceEventOf<K>> } = {
  // Many workers: the queue's events (narrateWorkers.ts).
  ...(Object.fromEntries(Object.entries(WORKER_NARRATORS).map(([type, narrator]) => [type, (event: never, i: number, ctx: Ctx) => (narrator as (lang: Lang, e: never, i: number, run: RunResult) => Line[])(ctx.lang, event, i, ctx.run)])) as unknown as { [K in keyof typeof WORKER_NARRATORS]: Narrator<TraceEventOf<K>> }),
  saved: (event, i, ctx, at) => {
    const label = at.saved!.parsed;
    const lines = savedLines(event, label, i, ctx, believed(at));
    // Many workers: the fencing token the line was written under (the store checked it in the same INSERT).
    if (event.token !== undefined) lines[0]!.parts.push([t(ctx.lang, 'workers.savedToken', { token: event.token }), 'dim']);
    if (label.kind === 'attempt_started' || event.state.pending === null) ctx.refusedBy = null;
    return lines;
  },
  request: (event, i, ctx, at) => {
    if (event.by === 'other') return [note(i, 'wire', [t(ctx.lang, 'trace.otherRequest', { action: formatAction(event.action, ctx.key) }), 'other'])];
    if (event.by === 'relay') return [note(i, 'wire', [t(ctx.lang, 'limits.trace.relayRequest', { action: formatAction(event.action, ctx.key), call: event.call ?? 0 }), 'other'])];
    if (event.check) return [note(i, 'wire', [t(ctx.lang, 'limits.trace.check', { action: formatAction(event.action, ctx.key) }), 'plain'])];
    if (event.delivery === 2) return [note(i, 'wire', [t(ctx.lang, 'trace.secondDelivery'), 'other'])];
    const previous = believed(at);
    if (previous?.pending && formatAction(previous.pending) !== formatAction(event.action)) {
      return [note(i, 'wire', [t(ctx.lang, 'trace.sentDiffers', { action: formatAction(event.action, ctx.key) }), 'bad'])];
    }
    return [];
  },
  db: (event, i, ctx, at) => {
    const who = event.by === 'other' ? t(ctx.lang, 'trace.otherClientColon') : event.by === 'relay' ? t(ctx.lang, 'limits.trace.relayColon') : '';
    const truth = at.truth!;
    const lines: Line[] = [];
    if (truth.kind === 'ledger') {
      lines.push(note(i, 'db', [t(ctx.lang, 'trace.ledgerHit', { who, receipt: truth.receiptId }), 'db']));
      const attempt = event.by === 'runner' ? at.attempt : null;
      const first = believed(at)?.attempts === 1;
      // The network's second delivery of this very request meets the receipt its first delivery wrote.
      const secondDelivery = attempt?.secondAt !== undefined && attempt.secondAt < i;
      if (attempt !== null && first && attempt.replayOf !== null) {
        lines.push(note(i, 'db', [`  ${t(ctx.lang, 'trace.replayFindsReceipt')}`, 'ok']));
      } else if (attempt !== null && first && !secondDelivery) {
        // A first attempt that meets its own key is two intents sharing one — unless the network delivered it twice.
        lines.push(note(i, 'db', [`  ${t(ctx.lang, 'trace.sharedKey')}`, 'warn']));
      }
    } else if (truth.kind === 'rolled_back') {
      lines.push(note(i, 'db', [t(ctx.lang, 'trace.dbUncommitted', { who, diff: formatDiff(ctx.lang, event.diff) }), 'db']));
    } else {
      lines.push(note(i, 'db', [t(ctx.lang, 'trace.dbCommitted', { who, diff: formatDiff(ctx.lang, event.diff) }), 'db']));
      // Many workers: the grant the effect and its ledger row were committed under.
      const token = event.by === 'runner' && event.diff.ledgerAdded.length > 0 ? receiptToken(ctx.run, event.diff.ledgerAdded.map((row) => row.key)) : null;
      if (token !== null) lines.push(note(i, 'db', [`  ${t(ctx.lang, 'workers.effectToken', { token })}`, 'db']));
    }
    if (truth.kind === 'no_receipt') lines.push(note(i, 'db', [`  ${t(ctx.lang, 'trace.noReceipt')}`, 'badStrong']));
    return lines;
  },
  fault: (event, i, ctx) => [note(i, faultLane(event.fault.kind), [t(ctx.lang, 'trace.fault', { fault: describeFault(event.fault), note: faultNote(ctx.lang, event) }), 'fault'])],
  reply: (event, i, ctx, at) => {
    const lines = replyLines(ctx.lang, event, i, at);
    if (event.by === 'runner' && event.delivered && !event.outcome.ok && event.outcome.error.class === 'ContractError') ctx.refusedBy = event.outcome.error.code ?? t(ctx.lang, 'trace.aContractError');
    return lines;
  },
  crash: (event, i, ctx, at) => {
    const said = t(ctx.lang, event.worker === undefined ? 'trace.crash' : 'workers.crash', { point: event.point, message: event.message });
    const lines = [note(i, 'runner', [said, 'badStrong'])];
    if (at.unsaved !== null) lines.push({ ...note(i, 'tool', [`  ${t(ctx.lang, 'trace.truth.neverSaw', { truth: truthText(ctx.lang, at.unsaved) })}`, 'bad']), truth: true });
    return lines;
  },
  recovered: (event, i, ctx) => {
    if (event.worker !== undefined) return workerRecovered(ctx.lang, event, i);
    const st = event.state;
    const where = event.seq === null ? t(ctx.lang, 'trace.recovered.emptyLog') : t(ctx.lang, 'trace.recovered.event', { seq: event.seq });
    const what =
      st === null
        ? t(ctx.lang, 'trace.recovered.nothing')
        : st.pending
          ? t(ctx.lang, 'trace.recovered.pending', { name: st.pending.name, attempts: st.attempts, calls: st.calls })
          : t(ctx.lang, 'trace.recovered.nothingPending', { calls: st.calls });
    return [{ event: i, lane: 'runner', t: event.t, parts: [[t(ctx.lang, 'trace.recovered', { runner: ctx.run.runner, where, what }), 'okStrong']] }];
  },
  crash_caught: (event, i, ctx) => [note(i, 'runner', [t(ctx.lang, 'trace.crashCaught', { how: event.how }), 'badStrong'])],
  runner_error: (event, i, ctx) => [note(i, 'runner', [t(ctx.lang, 'trace.runnerThrew', { name: event.errorName, message: event.message }), 'badStrong'])],
  finished: (event, i, ctx) =>
    !ctx.run.state || ctx.run.state.status === 'running' ? [note(i, 'runner', [t(ctx.lang, 'trace.stopped', { steps: event.steps, status: event.status }), 'bad'])] : [],
  pillar: (event, i, ctx) => pillarLines(ctx.lang, event.event, i),
  replay: (event, i, ctx) => {
    const text = t(ctx.lang, 'trace.replay', { dlqId: event.dlqId, afterMs: event.afterMs, runner: ctx.run.runner, action: event.action.name });
    return [{ event: i, lane: 'runner', t: event.t, parts: [[text, 'okStrong']] }];
  },
  purge: (event, i, ctx) => {
    const ids = event.removed.map((row) => receiptIdOf(row.result) ?? shortKey(row.key)).join(', ');
    const lines: Line[] = [{ event: i, lane: 'db', t: event.t, parts: [[t(ctx.lang, 'limits.trace.purge', { n: event.removed.length, ids, keep: event.keepMs }), 'db']] }];
    if (event.tombstones) lines.push(note(i, 'db', [`  ${t(ctx.lang, 'limits.trace.tombstones')}`, 'db']));
    return lines;
  },
  redelivery: (event, i, ctx) => [
    { event: i, lane: 'runner', t: event.t, parts: [[t(ctx.lang, 'limits.trace.redelivery', { afterMs: event.afterMs, task: ctx.run.scenario.task.id, runner: ctx.run.runner }), 'okStrong']] },
  ],
  relay: (event, i, ctx) => {
    const params = { id: event.id, ref: event.ref, attempt: event.attempt };
    const tone: Tone = event.what === 'gave_up' ? 'badStrong' : event.what === 'declined' ? 'warn' : event.what === 'picked' ? 'other' : 'ok';
    return [{ event: i, lane: 'tool', t: event.t, parts: [[t(ctx.lang, `limits.trace.relay.${event.what}`, params), tone]] }];
  },
};

/** A receipt's id, a reservation's or a release's. */
function receiptIdOf(result: unknown): string | undefined {
  const r = result as { reservation_id?: unknown; release_id?: unknown } | null;
  const id = r?.reservation_id ?? r?.release_id;
  return typeof id === 'string' ? id : undefined;
}

/** What the tool truly did for the runner, which the runner has not recorded: said under a crash or an indefinite error. */
function truthText(lang: Lang, truth: DbTruth): string {
  switch (truth.kind) {
    case 'ledger':
      return t(lang, 'trace.truth.committedEarlier', { receipt: truth.receiptId });
    case 'unchanged':
      return t(lang, 'trace.truth.nothingChanged');
    case 'changed':
      return t(lang, 'trace.truth.committed', { diff: formatDiff(lang, truth.diff) });
    case 'no_receipt':
      return t(lang, 'trace.truth.noLedgerRow', { diff: formatDiff(lang, truth.diff) });
    case 'rolled_back':
      return t(lang, 'trace.truth.rolledBack');
  }
}

/** Where a pillar speaks: the breaker and the backoff are the runner's client, the dead letters its database. */
function pillarLane(e: DurabilityEvent): Lane {
  return e.type.startsWith('dlq.') || e.type.startsWith('checkpoint.') ? 'events' : 'runner';
}

/**
 * A durability pillar at the Runner's seams: the pillar's own line (the labs' wording), and for a refusal what
 * it means to the runner. Each attempt's breaker bookkeeping is left out — the transitions say what matters.
 */
function pillarLines(lang: Lang, e: DurabilityEvent, i: number): Line[] {
  if (e.type === 'breaker.result' || e.type === 'breaker.probe_admitted' || (e.type === 'dlq.cleanup' && e.removed === 0)) return [];
  const line = describeDurabilityEvent(lang, e);
  const lines = [note(i, pillarLane(e), [line.text.trimStart(), line.tone])];
  if (e.type === 'breaker.rejected') lines.push(note(i, 'runner', [`  ${t(lang, 'trace.breakerTold')}`, 'bad']));
  if (e.type === 'dlq.enqueued') lines.push(note(i, 'events', [`  ${t(lang, 'trace.dlqKept')}`, 'warn']));
  return lines;
}

/** Tell a whole run: the lines of every event, in order. */
export function narrate(lang: Lang, run: RunResult): Line[] {
  const ctx: Ctx = { lang, run, key: traceKey(run.scenario.task.id), refusedBy: null };
  return analyze(run).events.flatMap((at) => narrateEvent(at, ctx));
}

function narrateEvent(at: EventView, ctx: Ctx): Line[] {
  const lines = narrateOne(at, ctx);
  // Many workers: every line in the lane of the worker (or the sweeper) whose event it is.
  const worker = at.event.worker;
  return worker === undefined ? lines : lines.map((line) => ({ ...line, worker }));
}

function narrateOne(at: EventView, ctx: Ctx): Line[] {
  const { event, index } = at;
  const narrator = (NARRATORS as unknown as Record<string, Narrator<TraceEvent> | undefined>)[event.type];
  if (narrator !== undefined) return narrator(event, index, ctx, at);
  // An event kind this renderer was not taught: shown as it is, so nothing the simulator said is hidden.
  const { type, t: _t, step: _s, ...rest } = event as { type: string; t: number; step: number };
  return [note(index, 'runner', [`${type}: ${JSON.stringify(rest)}`, 'dim'])];
}

/** What a fault does, in words; after the tool's answer, what the tool had really done before it struck. */
function faultNote(lang: Lang, event: TraceEventOf<'fault'>): string {
  const kind = event.fault.kind;
  if ((kind === 'crash_after_commit' || kind === 'lost_reply') && event.answered !== undefined && event.answered !== 'committed') {
    return t(lang, `trace.faultNote.${kind}.${event.answered}`);
  }
  return t(lang, `trace.faultNote.${kind}`);
}

/** Where a fault strikes: the wire loses or repeats messages, a crash cuts the runner's process. */
function faultLane(kind: string): Lane {
  if (kind === 'crash_before_commit') return 'tool';
  if (kind.startsWith('crash')) return 'runner';
  if (kind === 'concurrent_reserve') return 'tool';
  return 'wire';
}

function labelTone(label: Label, state: RunnerState): Tone {
  if (label.kind === 'terminal' && label.status === 'succeeded') return 'okStrong';
  if (state.status !== 'running' && label.kind !== 'transient') return 'badStrong';
  if (label.kind === 'transient') return 'warn';
  if (label.kind === 'observed') return 'ok';
  if (label.kind === 'prepared') return 'prepared';
  if (label.kind === 'attempt_started') return 'attempt';
  return 'plain';
}

/** `attempt 2` stays on one line when the text wraps. */
const glue = (text: string) => text.replaceAll(' ', GLUE);

/** A saved event's line: its columns, and what the label means for the runner's state (`previous`: what it held before). */
function savedLines(event: TraceEventOf<'saved'>, label: Label, i: number, ctx: Ctx, previous: RunnerState | null): Line[] {
  const { lang, run, refusedBy } = ctx;
  const st = event.state;
  const parts: Part[] = [];
  const extra: Line[] = [];
  switch (label.kind) {
    case 'started':
      parts.push([t(lang, 'trace.task', { id: st.task.id }), 'plain']);
      break;
    case 'redelivered':
      parts.push([t(lang, 'limits.trace.redelivered', { id: st.task.id }), 'plain']);
      break;
    case 'replay':
      parts.push([`${t(lang, 'trace.pendingAgain', { action: formatAction(st.pending, ctx.key) })} ${glue(t(lang, 'trace.attemptZero'))}`, 'plain']);
      break;
    case 'prepared': {
      parts.push([formatAction(st.pending, ctx.key), 'plain']);
      const made = keyNote(lang, st, run);
      if (made !== null) extra.push(note(i, 'runner', [made.text, made.tone], [String(st.pending!.args.key), made.tone === 'bad' ? 'bad' : 'plain']));
      break;
    }
    case 'attempt_started': {
      const changed = previous?.pending && st.pending && previous.decisions === st.decisions && previous.pending.args.key !== st.pending.args.key;
      parts.push([`${formatAction(st.pending, ctx.key)} ${glue(`· ${t(lang, 'trace.attempt', { n: st.attempts })}`)}`, 'plain']);
      if (changed) parts.push([t(lang, 'trace.keyChanged'), 'badStrong']);
      if (refusedBy !== null) parts.push([t(lang, 'trace.retriedAfterRefusal', { code: refusedBy }), 'badStrong']);
      if (st.calls > st.task.max_calls) parts.push([t(lang, 'trace.overBudget', { calls: st.calls, max: st.task.max_calls }), 'badStrong']);
      break;
    }
    case 'observed': {
      // The action just observed: the one pending before, or else the observation that changed.
      const name = previous?.pending?.name ?? Object.keys(st.observations).find((k) => JSON.stringify(st.observations[k]) !== JSON.stringify(previous?.observations[k]));
      parts.push([name ? `${name} → ${formatReply(lang, name, st.observations[name])}` : 'observed', 'plain']);
      break;
    }
    case 'transient': {
      const lostName = previous?.pending?.name ?? t(lang, 'trace.theAction');
      if (st.pending === null) parts.push([t(lang, lostName === 'reserve' ? 'trace.droppedMaybeDone' : 'trace.dropped', { name: lostName }), 'bad']);
      else if (st.status === 'retry_exhausted') {
        parts.push([t(lang, st.pending.name === 'reserve' ? 'trace.exhaustedMaybeDone' : 'trace.exhausted', { attempts: st.attempts, name: st.pending.name }), 'warn']);
      } else parts.push([`${t(lang, 'trace.staysPending', { name: st.pending.name })} ${glue(t(lang, 'trace.attemptOf', { n: st.attempts, of: st.task.max_retries + 1 }))}`, 'plain']);
      break;
    }
    default:
      // A terminal status, or a label of the runner's own: told by the state it saved.
      if (st.status === 'budget_exhausted') {
        const next = st.pending ? t(lang, 'trace.budget.retryOf', { name: st.pending.name }) : t(lang, 'trace.budget.nextAction');
        parts.push([t(lang, 'trace.budget', { calls: st.calls, max: st.task.max_calls, next }), 'plain']);
      } else if (st.status !== 'running') parts.push([st.result?.error ? `${st.status}: ${toolText(lang, st.result.error)}` : st.status, 'plain']);
      else if (st.pending) parts.push([`${formatAction(st.pending, ctx.key)} · ${glue(t(lang, 'trace.attempt', { n: st.attempts }))}`, 'plain']);
  }
  const head: Line = { event: i, lane: 'runner', saved: { t: event.t, step: event.step, seq: event.seq, label: event.label, labelTone: labelTone(label, st), calls: st.calls }, parts };
  return [head, ...extra];
}

/** Where the key on a prepared reserve came from — said once, with the key in full: every later line shortens it. */
function keyNote(lang: Lang, state: RunnerState, run: RunResult): { text: string; tone: Tone } | null {
  const action = state.pending;
  if (action?.name !== 'reserve' || action.args.key === undefined) return null;
  const step = run.scenario.script[state.decisions - 1];
  if (step?.kind === 'tool' && step.args.key !== undefined) return { text: t(lang, 'trace.key.policy'), tone: 'dim' };
  const derived = reserveKey(state.task.id, action.args as { item: unknown; qty: unknown });
  return action.args.key === derived ? { text: t(lang, 'trace.key.made'), tone: 'dim' } : { text: t(lang, 'trace.key.notDerived'), tone: 'bad' };
}

function replyLines(lang: Lang, event: TraceEventOf<'reply'>, i: number, at: EventView): Line[] {
  const who = event.by === 'other' ? t(lang, 'trace.otherClient') : event.by === 'relay' ? t(lang, 'limits.trace.relayWho') : '';
  if (event.outcome.ok) {
    const text = `${who}← ${formatReply(lang, event.tool, event.outcome.value)}`;
    return [note(i, 'wire', event.delivered ? [text, 'ok'] : [t(lang, 'trace.replyNeverDelivered', { text }), 'dim'])];
  }
  const e = event.outcome.error;
  const name = e.class === 'ContractError' ? `ContractError ${toolText(lang, e.message)}` : `TransientError ${e.message}`;
  let meaning: string;
  if (e.class === 'ContractError') meaning = t(lang, 'trace.meaning.refused');
  else if (e.certainty === 'definite') meaning = t(lang, 'trace.meaning.definite');
  else if (KEYLESS_TOOLS.has(event.tool)) meaning = t(lang, 'limits.trace.meaning.keyless'); // docs/spec.md §14: there is no key to retry with
  else meaning = t(lang, 'trace.meaning.indefinite');
  const parts: Part[] = [[`${who}✘ ${name} ·`, 'bad'], [meaning, e.certainty === 'indefinite' ? 'badStrong' : 'bad']];
  if (!event.delivered) parts.push([t(lang, 'trace.neverDelivered'), 'dim']);
  const lines = [note(i, 'wire', ...parts)];
  if (e.certainty === 'indefinite' && at.unsaved !== null) lines.push({ ...note(i, 'tool', [`  ${t(lang, 'trace.truth.cannotKnow', { truth: truthText(lang, at.unsaved) })}`, 'warn']), truth: true });
  if (event.changedData) lines.push(note(i, 'db', [`  ${t(lang, 'trace.refusalChanged')}`, 'badStrong']));
  // A stale holder's refusal is about its grant, not the intent (another holder carried it): nothing wrong to flag.
  if (event.receiptExisted && e.code !== 'STALE_FENCE') lines.push(note(i, 'db', [`  ${t(lang, 'trace.refusedDespiteReceipt')}`, 'badStrong']));
  return lines;
}
