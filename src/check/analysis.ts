/**
 * One analysis of a run: a single pass over its trace that builds, for every event, the three views the
 * lessons teach — what the runner had saved (and whether its process was up), what it was told on each
 * attempt (definite or INDEFINITE), and what was true in the databases (what the tool really did, its
 * committed rows, how far the runner's log reached). The invariants, the grader's mistakes and divergence,
 * the narration and the HTML timeline read this one value instead of each rebuilding it by its own rules.
 *
 * Guarantees: pure (the same run gives an equal analysis); `events[i]` is trace event i; labels are parsed
 * here only (label.ts); an event kind this pass does not know is carried through, changing no view.
 */
import type { SnapshotDiff, ToolSnapshot } from '../inventory/snapshot.js';
import { isEmptyDiff } from '../inventory/snapshot.js';
import type { RunnerState, ToolAction } from '../runner/state.js';
import type { ReplyOutcome, TraceEvent, TraceEventOf } from '../sim/events.js';
import type { Run } from '../sim/Run.js';
import { parseLabel, type Label } from './label.js';
import { applyDiff, initialRows } from './toolRows.js';

/** What the runner had saved: the record its process holds (it saved it, or read it back after a crash). */
export interface Saved {
  seq: number;
  /** As saved, and parsed. */
  label: string;
  parsed: Label;
  state: RunnerState;
  how: 'saved' | 'recovered';
  /** Trace index of the saved (or recovered) event. */
  at: number;
  /** The delivery of the task in which the process came to hold it (see EventView.delivery). */
  delivery: number;
}

/** What one db event truly did (what a crash or an indefinite error hides from the runner). */
export type DbTruth =
  /** A reserve answered from the ledger: the effect was committed earlier. */
  | { kind: 'ledger'; receiptId: string }
  | { kind: 'unchanged' }
  | { kind: 'changed'; diff: SnapshotDiff }
  /** A reserve changed the stock and wrote no ledger row (a broken store). */
  | { kind: 'no_receipt'; diff: SnapshotDiff }
  /** Made inside a transaction that a crash rolled back. */
  | { kind: 'rolled_back'; diff: SnapshotDiff };

/** What the tool did with an attempt, the most that happened: ranked as EFFECT_RANK. */
export type Effect = 'nothing' | 'refused' | 'read' | 'ledger' | 'rolled_back' | 'committed';
const EFFECT_RANK: Record<Effect, number> = { nothing: 0, refused: 1, read: 2, ledger: 3, rolled_back: 4, committed: 5 };

export interface Reply {
  at: number;
  outcome: ReplyOutcome;
  /** false: the first reply of a duplicate delivery, which never reached the runner. */
  delivered: boolean;
}

/** One request the runner put on the wire (the network's second delivery of it belongs to it). */
export interface Attempt {
  /** Trace index of the request. */
  at: number;
  /** 1 for the runner's first request of the whole trace, replays included. */
  ordinal: number;
  action: ToolAction;
  /** As the wire numbered it (calls across the whole scenario). */
  call?: number;
  attempt?: number;
  /** The delivery of the task it belongs to (see EventView.delivery). */
  delivery: number;
  /** The decision it belongs to: the saved state's `decisions` when it left (0 with nothing saved). */
  decision: number;
  /** What the runner had saved when it left, and the pending action in it: what it should have sent. */
  saved: Saved | null;
  pending: ToolAction | null;
  /** Trace index of the network's second delivery of this request (duplicate_delivery). */
  secondAt?: number;
  /** The status query the runner's client sent before it resent (docs/spec.md §14): no call of its own, not the pending action. */
  check?: true;
  /** It carries a dead letter's intent again (a replay, before any new action was prepared): the record. */
  replayOf: string | null;
  /** What the tool truly did, and each db event that says so. */
  effect: Effect;
  changes: Array<{ at: number; truth: DbTruth; diff: SnapshotDiff }>;
  /** Every reply to it, and the one the runner was told (null: none reached it — a crash in flight). */
  replies: Reply[];
  told: Reply | null;
  /** Trace index of its last event (the reply it was told, or the crash). */
  end: number;
}

export interface EventView {
  index: number;
  event: TraceEvent;
  /** The delivery of the task: 0 the run, n its n-th replay of a dead letter (each with its own call budget). */
  delivery: number;
  /** The process is up after this event: false from a crash until the recovery. */
  up: boolean;
  /** What the runner had saved just before this event, and just after it (they differ at a save or a recovery). */
  before: Saved | null;
  saved: Saved | null;
  /** The attempt this event is part of: its request, second delivery, the tool's work, a fault, its reply, a crash in flight. */
  attempt: Attempt | null;
  /** For a saved event: the attempts told since the runner's previous save or recovery (what this save follows). */
  toldBefore?: readonly Attempt[];
  /** For a db event: what it truly did. */
  truth?: DbTruth;
  /** The last thing the tool truly did for the runner since the runner last saved (after this event). */
  unsaved: DbTruth | null;
  /** Index into Analysis.rows: the tool's committed rows after this event; and whether this event changed them. */
  rows: number;
  rowsChanged: boolean;
  /** The highest event number saved so far: how far the runner's log reached (0: nothing yet). */
  logReach: number;
}

/** One committed event of the runner's log, its label parsed, its calls counted across the whole scenario. */
export interface LogEntry {
  seq: number;
  label: string;
  parsed: Label;
  state: RunnerState;
  /** 0 before the first `replay:` (or `redelivered`) event of the log, n from the n-th. */
  delivery: number;
  /** 0 in the task's first delivery, n from its n-th redelivery (docs/spec.md §13). */
  redelivery: number;
  /** The state's `calls` plus the calls of the deliveries before (the wire's numbering). */
  call: number;
}

export interface Analysis {
  events: EventView[];
  attempts: Attempt[];
  /** The runner's requests on the wire per delivery of the task, whatever the runner counts. */
  requestsPerDelivery: number[];
  log: LogEntry[];
  /**
   * The log's attempt_started events with an action pending, by the decision they belong to — within one
   * delivery of the task (a redelivered task decides afresh; a dead letter's replay carries its decision on).
   */
  attemptsByDecision: Map<string, LogEntry[]>;
  /** The tool's committed rows as they stood: [0] the initial inventory, then one per change. */
  rows: ToolSnapshot[];
}

/**
 * What one actor has seen and done, as the pass goes: with one runner there is one; with many workers one per
 * lane (`event.worker`), each worker's view its own — what it saved or read back, its attempt in flight.
 */
interface LaneView {
  up: boolean;
  saved: Saved | null;
  current: Attempt | null;
  toldSince: Attempt[];
  unsaved: DbTruth | null;
  replayOf: string | null;
  requests: number;
}

const newLane = (): LaneView => ({ up: true, saved: null, current: null, toldSince: [], unsaved: null, replayOf: null, requests: 0 });

export function analyze(run: Run): Analysis {
  const log = logEntries(run);
  // Only a recovery needs a record's label by its number: looked up then.
  let labelOf: Map<number, string> | null = null;
  const labelAt = (seq: number) => (labelOf ??= new Map(log.map((entry) => [entry.seq, entry.label]))).get(seq) ?? '';
  const events: EventView[] = [];
  const attempts: Attempt[] = [];
  const requestsPerDelivery = [0];
  const rows: ToolSnapshot[] = [initialRows(run.scenario)];
  let delivery = 0;
  let logReach = 0;
  // One runner: one lane, always. Many workers: a lane per worker.
  const only = newLane();
  const lanes = run.workers === undefined ? null : new Map<string, LaneView>();
  const laneOf = (event: TraceEvent): LaneView => {
    if (lanes === null) return only;
    const name = event.worker ?? '';
    let lane = lanes.get(name);
    if (lane === undefined) lanes.set(name, (lane = newLane()));
    return lane;
  };

  run.trace.forEach((event, index) => {
    const lane = laneOf(event);
    const before = lane.saved;
    let rowsChanged = false;
    let truth: DbTruth | undefined;
    let toldBefore: Attempt[] | undefined;
    // An attempt ends at what the runner does next: a save, a recovery, a replay, an exception, the end, another request.
    if (lane.current !== null && endsAttempt(event)) lane.current = null;
    switch (event.type) {
      case 'saved': {
        const parsed = parseLabel(event.label);
        lane.saved = { seq: event.seq, label: event.label, parsed, state: event.state, how: 'saved', at: index, delivery };
        lane.up = true;
        lane.unsaved = null;
        if (parsed.kind === 'prepared') lane.replayOf = null;
        logReach = Math.max(logReach, event.seq);
        toldBefore = lane.toldSince;
        lane.toldSince = [];
        break;
      }
      case 'recovered': {
        const label = event.seq === null ? '' : labelAt(event.seq);
        lane.saved = event.state === null ? null : { seq: event.seq ?? 0, label, parsed: parseLabel(label), state: event.state, how: 'recovered', at: index, delivery };
        lane.up = true;
        lane.toldSince = [];
        break;
      }
      case 'claim':
        // A worker given a task starts from nothing of its own: it reads the task's log next (a recovery).
        if (event.granted !== null) Object.assign(lane, newLane(), { requests: lane.requests });
        break;
      case 'crash':
        lane.up = false;
        break;
      case 'replay':
        delivery += 1;
        lane.up = true;
        lane.replayOf = event.dlqId;
        requestsPerDelivery.push(0);
        break;
      case 'redelivery':
        delivery += 1;
        lane.up = true;
        lane.replayOf = null;
        requestsPerDelivery.push(0);
        break;
      case 'purge':
        rows.push(applyDiff(rows.at(-1)!, event.diff));
        rowsChanged = true;
        break;
      case 'request':
        if (event.by !== 'runner') break;
        if (event.delivery === undefined) {
          lane.current = newAttempt(event, index, attempts.length + 1, delivery, lane.saved, lane.replayOf);
          attempts.push(lane.current);
          // a client's status query (docs/spec.md §14) is part of the attempt, not a request of the budget's
          if (event.check) lane.current.check = true;
          else {
            lane.requests += 1;
            if (lanes === null) requestsPerDelivery[requestsPerDelivery.length - 1]! += 1;
          }
        } else if (lane.current !== null) lane.current.secondAt = index;
        break;
      case 'db':
        truth = dbTruth(event);
        if (event.committed && !event.ledgerHit && !isEmptyDiff(event.diff)) {
          rows.push(applyDiff(rows.at(-1)!, event.diff));
          rowsChanged = true;
        }
        if (event.by !== 'runner') break;
        lane.unsaved = truth;
        if (lane.current !== null) {
          lane.current.changes.push({ at: index, truth, diff: event.diff });
          raise(lane.current, dbEffect(event));
        }
        break;
      case 'fault':
        if (lane.current !== null && event.answered !== undefined) raise(lane.current, event.answered);
        break;
      case 'reply': {
        if (event.by !== 'runner' || lane.current === null) break;
        const reply: Reply = { at: index, outcome: event.outcome, delivered: event.delivered };
        lane.current.replies.push(reply);
        raise(lane.current, event.outcome.ok ? 'read' : event.outcome.error.class === 'ContractError' ? 'refused' : 'nothing');
        if (event.delivered) {
          lane.current.told = reply;
          lane.toldSince.push(lane.current);
        }
        break;
      }
    }
    const attempt = lane.current;
    if (attempt !== null) attempt.end = index;
    // One shape for every view (the optional fields left undefined): this pass runs for every explored schedule.
    events.push({ index, event, delivery, up: lane.up, before, saved: lane.saved, attempt, toldBefore, truth, unsaved: lane.unsaved, rows: rows.length - 1, rowsChanged, logReach });
    // The runner is told, or the process dies: nothing after belongs to this attempt.
    if (lane.current !== null && ((event.type === 'reply' && event.by === 'runner' && event.delivered) || event.type === 'crash')) lane.current = null;
  });

  // Many workers: each worker's own requests are its budget's (invariant 2); all workers' together, invariant 12's.
  if (lanes !== null) requestsPerDelivery[0] = Math.max(0, ...[...lanes.values()].map((lane) => lane.requests));
  return { events, attempts, requestsPerDelivery, log, attemptsByDecision: byDecision(log), rows };
}

function endsAttempt(event: TraceEvent): boolean {
  switch (event.type) {
    case 'saved':
    case 'recovered':
    case 'replay':
    case 'redelivery':
    case 'runner_error':
    case 'crash_caught':
    case 'finished':
      return true;
    case 'request':
      return event.by === 'runner' && event.delivery === undefined;
    default:
      return false;
  }
}

function newAttempt(event: TraceEventOf<'request'>, at: number, ordinal: number, delivery: number, saved: Saved | null, replayOf: string | null): Attempt {
  return {
    at,
    ordinal,
    action: event.action,
    call: event.call,
    attempt: event.attempt,
    delivery,
    decision: saved?.state.decisions ?? 0,
    saved,
    // Read back after a crash, a state without a pending field holds nothing pending (as the invariants always read it).
    pending: saved === null ? null : saved.how === 'recovered' ? (saved.state.pending ?? null) : saved.state.pending,
    replayOf,
    effect: 'nothing',
    changes: [],
    replies: [],
    told: null,
    end: at,
  };
}

function raise(attempt: Attempt, effect: Effect): void {
  if (EFFECT_RANK[effect] > EFFECT_RANK[attempt.effect]) attempt.effect = effect;
}

export function dbTruth(event: TraceEventOf<'db'>): DbTruth {
  if (event.ledgerHit) return { kind: 'ledger', receiptId: event.ledgerHit.receiptId };
  if (!event.committed) return { kind: 'rolled_back', diff: event.diff };
  if ((event.tool === 'reserve' || event.tool === 'release') && event.diff.stock.length > 0 && event.diff.ledgerAdded.length === 0) return { kind: 'no_receipt', diff: event.diff };
  return isEmptyDiff(event.diff) ? { kind: 'unchanged' } : { kind: 'changed', diff: event.diff };
}

/** As the wire counts what a delivery did (FaultyNetwork): a change, else a reserve's ledger answer, else a read. */
function dbEffect(event: TraceEventOf<'db'>): Effect {
  if (!event.committed) return 'rolled_back';
  if (!isEmptyDiff(event.diff)) return 'committed';
  return event.tool === 'reserve' || event.tool === 'release' ? 'ledger' : 'read';
}

/**
 * The committed log, each event with its call as the wire counts it: a replay of a dead letter starts its own
 * budget at 0, so its calls come after the calls of the deliveries before it.
 */
function logEntries(run: Run): LogEntry[] {
  let delivery = 0;
  let replays = 0;
  let redelivery = 0;
  let offset = 0;
  return run.log.map(({ seq, label, state }) => {
    const parsed = parseLabel(label);
    if (parsed.kind === 'replay') {
      offset += run.replays[replays++]?.callsBefore ?? 0;
      delivery += 1;
    } else if (parsed.kind === 'redelivered') {
      const before = run.redeliveries?.[redelivery++];
      offset += (before?.callsBefore ?? 0) + (before?.relayCalls ?? 0);
      delivery += 1;
    }
    return { seq, label, parsed, state, delivery, redelivery, call: state.calls + offset };
  });
}

function byDecision(log: readonly LogEntry[]): Map<string, LogEntry[]> {
  const groups = new Map<string, LogEntry[]>();
  for (const entry of log) {
    if (entry.parsed.kind !== 'attempt_started' || entry.state.pending == null) continue;
    const id = `${entry.redelivery}:${entry.state.decisions}`;
    const group = groups.get(id) ?? [];
    group.push(entry);
    groups.set(id, group);
  }
  return groups;
}
