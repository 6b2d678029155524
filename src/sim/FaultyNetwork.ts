/**
 * The wire between the runner and the tool, where the attempt-time faults of docs/spec.md §5 happen.
 *
 * Every delivery is bracketed by two snapshots of the tool's database, taken here and not by the tool, so
 * the trace shows what really changed (and the checks can prove a refusal changed nothing) even when the
 * tool under test is a deliberately broken one. A snapshot is read again only when SQLite counts a changed
 * row (WatchedSnapshot). Replies cross as JSON copies, as they would over a network.
 */
import type Database from 'better-sqlite3';
import { OTHER_CLIENT_TASK, TOOL_LATENCY_MS } from '../core/defaults.js';
import { ContractError, TransientError, isContractError } from '../inventory/errors.js';
import type { InventoryTool, ToolFence } from '../inventory/InventoryTool.js';
import { fingerprint } from '../inventory/keys.js';
import { diffSnapshots, isEmptyDiff, readSnapshot, WatchedSnapshot, type ToolSnapshot } from '../inventory/snapshot.js';
import type { AttemptContext, ToolClient } from '../runner/ToolClient.js';
import type { ToolAction } from '../runner/state.js';
import type { Clock } from '../core/clock.js';
import type { CrashPoint } from '../core/crash.js';
import { jsonCopy } from '../core/canonical.js';
import type { Rng } from '../core/rng.js';
import type { ErrorInfo, Sender } from './events.js';
import type { TraceRecorder } from './TraceRecorder.js';
import type { FaultPlan, PlannedFault } from '../faults/FaultPlan.js';
import { message, type Message } from '../core/message.js';
import type { SimCode } from './codes.js';

/** What outlives a crash on the network's side: counters the harness keeps for the whole run. */
export interface WireCounters {
  /** Requests the runner under test put on the wire (its real calls, whatever its own count says). */
  runnerRequests: number;
  /** Reservations the simulated other client has attempted (its keys are other:reserve:<n>). */
  otherReservations: number;
  /**
   * Calls of the deliveries before this one: a replay of a dead letter counts its calls from 0 again, and the
   * wire numbers calls across the whole scenario (a fault's `call` and the trace's call numbers are global).
   */
  callOffset: number;
}

export interface NetworkDeps {
  tool: InventoryTool;
  db: Database.Database;
  plan: FaultPlan;
  trace: TraceRecorder;
  clock: Clock;
  rng: Rng;
  counters: WireCounters;
  /** Closes both connections and throws Crash: the process is gone. */
  crash(point: CrashPoint, said: Message<SimCode>): never;
  /** Many workers: whose wire this is (a fault naming a worker strikes only its attempts). */
  worker?: string;
  /** Many workers: the holder's fence, checked inside the tool's transaction of every runner's request. */
  fence?: ToolFence;
  /** Many workers: other connections write to the tool's database too (the snapshots must see their commits). */
  shared?: boolean;
}

/** What the tool did with this attempt's deliveries, the most that happened: a change, a ledger answer, a read. */
type Answered = 'committed' | 'ledger' | 'read';
const ANSWER_RANK: Record<Answered, number> = { read: 0, ledger: 1, committed: 2 };

export class FaultyNetwork implements ToolClient {
  readonly #d: NetworkDeps;
  #answered: Answered = 'read';
  /** The tool's database as the harness sees it, read again only when a row changed. */
  readonly #snapshot: WatchedSnapshot;

  constructor(deps: NetworkDeps) {
    this.#d = deps;
    this.#snapshot = new WatchedSnapshot(deps.db, deps.shared ? { shared: true } : {});
  }

  /** The tool's database as it stands (read again only if a row changed since the last delivery). */
  snapshot(): ToolSnapshot {
    return this.#snapshot.read();
  }

  async execute(action: ToolAction, at: AttemptContext): Promise<unknown> {
    const { plan, trace, counters } = this.#d;
    const request = jsonCopy(action);
    const call = at.call + counters.callOffset;
    counters.runnerRequests += 1;
    this.#startAttempt();
    this.#travel();
    trace.emit({ type: 'request', by: 'runner', action: request, call, attempt: at.attempt });

    const hits = plan.atAttempt(request.name, call, at.attempt, trace.step, this.#d.worker);
    const has = (kind: PlannedFault['spec']['kind']) => hits.find((hit) => hit.spec.kind === kind);
    for (const hit of hits) {
      if (hit.spec.kind === 'concurrent_reserve') {
        this.#fired(hit);
        this.#otherClient(request, hit.spec.qty ?? 1);
      }
    }
    const transient = has('transient');
    if (transient) {
      this.#fired(transient);
      throw this.#fail(request.name, new TransientError('unavailable', { definite: true }));
    }
    let crashBefore = has('crash_before_commit');
    if (crashBefore && request.name !== 'reserve') {
      // A read has no transaction to be inside: the process dies before the tool runs.
      this.#fired(crashBefore);
      this.#d.crash('crash_before_commit', message('trace.crash.beforeRan', { tool: request.name }));
    }
    const duplicate = has('duplicate_delivery');
    if (duplicate) {
      this.#fired(duplicate);
      try {
        this.#deliver(request, at.taskId, 'runner', 1, crashBefore);
      } catch (error) {
        if (!isContractError(error)) throw error; // this first reply is lost anyway; the runner gets the second
      }
      crashBefore = undefined;
    }
    const value = this.#deliver(request, at.taskId, 'runner', duplicate ? 2 : undefined, crashBefore);

    const crashAfter = has('crash_after_commit');
    if (crashAfter) {
      this.#fired(crashAfter, this.#answered);
      this.#d.crash('crash_after_commit', message(this.#answered === 'committed' ? 'trace.crash.afterCommit' : 'trace.crash.afterAnswer', { tool: request.name }));
    }
    const lost = has('lost_reply');
    if (lost) {
      this.#fired(lost, this.#answered);
      throw this.#fail(request.name, new TransientError('lost_reply', { definite: false }));
    }
    trace.emit({ type: 'reply', by: 'runner', tool: request.name, outcome: { ok: true, value }, delivered: true });
    return jsonCopy(value);
  }

  /** One delivery of a request to the tool, bracketed by snapshots. Throws the tool's ContractError. */
  #deliver(request: ToolAction, taskId: string, by: Sender, delivery: 1 | 2 | undefined, crashBefore?: PlannedFault): unknown {
    const { tool, db, trace } = this.#d;
    if (by === 'other' || delivery === 2) {
      this.#travel();
      trace.emit({ type: 'request', by, action: request, ...(delivery ? { delivery } : {}) });
    }
    const before = this.#snapshot.read();
    const midTransaction = crashBefore
      ? () => {
          // A correct store is inside its one transaction here; a broken one may already have committed part of it.
          const committed = !db.inTransaction;
          trace.emit({ type: 'db', by, tool: request.name, diff: diffSnapshots(before, readSnapshot(db)), committed });
          this.#fired(crashBefore);
          this.#d.crash('crash_before_commit', message(committed ? 'trace.crash.midway' : 'trace.crash.inTransaction', { tool: request.name }));
        }
      : undefined;
    let value: unknown;
    try {
      const fence = by === 'runner' ? this.#d.fence : undefined;
      value = tool.call({ name: request.name, args: jsonCopy(request.args) }, { taskId, ...(midTransaction ? { midTransaction } : {}), ...(fence ? { fence } : {}) });
    } catch (error) {
      if (!isContractError(error)) throw error;
      const after = this.#snapshot.read();
      const diff = diffSnapshots(before, after);
      if (!isEmptyDiff(diff)) trace.emit({ type: 'db', by, tool: request.name, diff, committed: true });
      const print = request.name === 'reserve' ? fingerprint(request.args) : undefined;
      trace.emit({
        type: 'reply',
        by,
        tool: request.name,
        outcome: { ok: false, error: errorInfo(error) },
        delivered: delivery !== 1,
        changedData: !isEmptyDiff(diff),
        ...(print !== undefined ? { receiptExisted: after.ledger.some((row) => row.key === request.args.key && row.fingerprint === print) } : {}),
      });
      throw error;
    }
    const after = this.#snapshot.read();
    const diff = diffSnapshots(before, after);
    if (request.name === 'reserve' || !isEmptyDiff(diff)) {
      const stored = isEmptyDiff(diff) ? after.ledger.find((row) => row.key === request.args.key) : undefined;
      const receiptId = (stored?.result as { reservation_id?: string } | undefined)?.reservation_id;
      trace.emit({
        type: 'db',
        by,
        tool: request.name,
        diff,
        committed: true,
        ...(stored ? { ledgerHit: { key: stored.key, receiptId: receiptId ?? '?' } } : {}),
      });
    }
    if (by === 'runner') {
      const answered: Answered = !isEmptyDiff(diff) ? 'committed' : request.name === 'reserve' ? 'ledger' : 'read';
      if (ANSWER_RANK[answered] > ANSWER_RANK[this.#answered]) this.#answered = answered;
    }
    if (delivery === 1) trace.emit({ type: 'reply', by, tool: request.name, outcome: { ok: true, value: jsonCopy(value) }, delivered: false });
    return value;
  }

  /** docs/spec.md §5: another client (task `other`, its own key) reads the version and reserves the same item. */
  #otherClient(request: ToolAction, qty: number): void {
    const { counters, trace } = this.#d;
    const item = typeof request.args.item === 'string' ? request.args.item : 'camera';
    counters.otherReservations += 1;
    try {
      const stock = this.#deliver({ kind: 'tool', name: 'get_stock', args: { item } }, OTHER_CLIENT_TASK, 'other', undefined) as { version: number };
      trace.emit({ type: 'reply', by: 'other', tool: 'get_stock', outcome: { ok: true, value: jsonCopy(stock) }, delivered: true });
      const args = { item, qty, expected_version: stock.version, key: `${OTHER_CLIENT_TASK}:reserve:${counters.otherReservations}` };
      const receipt = this.#deliver({ kind: 'tool', name: 'reserve', args }, OTHER_CLIENT_TASK, 'other', undefined);
      trace.emit({ type: 'reply', by: 'other', tool: 'reserve', outcome: { ok: true, value: jsonCopy(receipt) }, delivered: true });
    } catch (error) {
      if (!isContractError(error)) throw error; // the other client's refusal is its own business
    }
  }

  /** A new attempt: nothing answered yet. */
  #startAttempt(): void {
    this.#answered = 'read';
  }

  /**
   * `answered`, for a fault that strikes after the tool's answer: what the tool did before it, in truth —
   * committed a change, or only answered (from its ledger: a retry meeting its receipt; or as a read).
   */
  #fired(hit: PlannedFault, answered?: Answered): void {
    this.#d.trace.emit({ type: 'fault', fault: hit.spec, index: hit.index, ...(answered !== undefined ? { answered } : {}) });
  }

  #fail(tool: string, error: TransientError): TransientError {
    this.#d.trace.emit({ type: 'reply', by: 'runner', tool, outcome: { ok: false, error: errorInfo(error) }, delivered: true });
    return error;
  }

  /** A request takes a little virtual time on the wire (drawn from the seeded rng). */
  #travel(): void {
    this.#d.clock.advance(this.#d.rng.int(TOOL_LATENCY_MS.min, TOOL_LATENCY_MS.max));
  }
}

function errorInfo(error: TransientError | ContractError): ErrorInfo {
  if (isContractError(error)) return { class: 'ContractError', code: error.code, message: error.message, certainty: 'definite' };
  return { class: 'TransientError', message: error.message, certainty: error.definite ? 'definite' : 'indefinite' };
}
