/**
 * The wire between the runner and the tool, where the attempt-time faults of docs/spec.md §5 happen.
 *
 * Every delivery is bracketed by two snapshots of the tool's database, taken here and not by the tool, so
 * the trace shows what really changed (and the checks can prove a refusal changed nothing) even when the
 * tool under test is a deliberately broken one. A snapshot is read again only when SQLite counts a changed
 * row (WatchedSnapshot). Replies cross as JSON copies, as they would over a network.
 */
import type Database from 'better-sqlite3';
import type { SqlConnection } from '../core/sql.js';
import { OTHER_CLIENT_TASK, TOOL_LATENCY_MS } from '../core/defaults.js';
import { ContractError, TransientError, isContractError } from '../inventory/errors.js';
import { refuse } from '../inventory/refusals.js';
import type { InventoryTool, ToolFence } from '../inventory/InventoryTool.js';
import { fingerprint } from '../inventory/keys.js';
import { KEYLESS_TOOLS, REMOTE_TOOLS, type PaymentService } from '../inventory/PaymentService.js';
import { diffSnapshots, isEmptyDiff, readSnapshotOps, WatchedSnapshot, type ToolSnapshot } from '../inventory/snapshot.js';
import { connectionOf } from '../inventory/InventoryTool.js';
import type { AttemptContext, ToolClient } from '../runner/ToolClient.js';
import type { ToolAction } from '../runner/state.js';
import type { Clock } from '../core/clock.js';
import type { CrashPoint } from '../core/crash.js';
import { jsonCopy } from '../core/canonical.js';
import type { Rng } from '../core/rng.js';
import type { ErrorInfo, Sender } from './events.js';
import type { TraceRecorder } from './TraceRecorder.js';
import type { FaultPlan, FiredAt, PlannedFault } from '../faults/FaultPlan.js';
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
  /** Requests the outbox's relay has sent (docs/spec.md §14.4); its calls are numbered after the task's. */
  relayCalls?: number;
}

export interface NetworkDeps {
  tool: InventoryTool;
  /** The remote service with no idempotency key (docs/spec.md §14), for a scenario that has one. */
  remote?: PaymentService | null;
  /** A scenario past the chapter (docs/spec.md §13–§14): the snapshots read the limits' tables too. */
  limits?: boolean;
  /** The tool's connection (SQLite's, or either database's): the snapshots are read on it. */
  db: Database.Database | SqlConnection;
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

/** Writes that answer a repeated key from the ledger (their db line shows the ledger hit). */
const KEYED_WRITES: ReadonlySet<string> = new Set(['reserve', 'release']);
/** Writes with a transaction a crash_before_commit can strike inside; any other request dies before it runs. */
const IN_TRANSACTION: ReadonlySet<string> = new Set(['reserve', 'release', 'charge']);

/** Who puts a request on the wire, and as what: the runner's attempt, the check its client makes first, the relay's. */
interface Carry {
  by: Sender;
  call: number;
  attempt: number;
  taskId: string;
  /** A status query the runner's client makes before it resends (docs/spec.md §14): part of the attempt, not a call of its own. */
  check?: true;
}

/** What the tool did with this attempt's deliveries, the most that happened: a change, a ledger answer, a read. */
type Answered = 'committed' | 'ledger' | 'read';
const ANSWER_RANK: Record<Answered, number> = { read: 0, ledger: 1, committed: 2 };

export class FaultyNetwork implements ToolClient {
  readonly #d: NetworkDeps;
  #answered: Answered = 'read';
  /** The attempt under way, where its faults fire. */
  #at: FiredAt = { step: 0 };
  /** The tool's database as the harness sees it, read again only when a row changed. */
  readonly #snapshot: WatchedSnapshot;
  readonly #sql: SqlConnection;

  constructor(deps: NetworkDeps) {
    this.#d = deps;
    this.#sql = connectionOf(deps.db);
    this.#snapshot = new WatchedSnapshot(this.#sql, { limits: deps.limits === true, shared: deps.shared === true });
  }

  /** The tool's database as it stands (read again only if a row changed since the last delivery). */
  async snapshot(): Promise<ToolSnapshot> {
    return this.#snapshot.read();
  }

  async execute(action: ToolAction, at: AttemptContext): Promise<unknown> {
    this.#d.counters.runnerRequests += 1;
    return this.#carry(action, { by: 'runner', call: at.call + this.#d.counters.callOffset, attempt: at.attempt, taskId: at.taskId });
  }

  /**
   * The status query the runner's client sends before it resends a keyless request (docs/spec.md §14): on the
   * wire like any request of the attempt (the attempt's faults may strike it), but not a call of its own.
   */
  async check(action: ToolAction, at: AttemptContext): Promise<unknown> {
    return this.#carry(action, { by: 'runner', call: at.call + this.#d.counters.callOffset, attempt: at.attempt, taskId: at.taskId, check: true });
  }

  /** A request of the outbox's relay (docs/spec.md §14.4), call `call` of the scenario, attempt `attempt` of its message. */
  async relay(action: ToolAction, call: number, attempt: number, taskId: string): Promise<unknown> {
    return this.#carry(action, { by: 'relay', call, attempt, taskId });
  }

  async #carry(action: ToolAction, who: Carry): Promise<unknown> {
    const { plan, trace } = this.#d;
    const request = jsonCopy(action);
    const { by, call, taskId } = who;
    this.#startAttempt();
    this.#travel();
    trace.emit({ type: 'request', by, action: request, call, attempt: who.attempt, ...(who.check ? { check: true as const } : {}) });

    const hits = plan.atAttempt(request.name, call, who.attempt, this.#d.worker);
    this.#at = { step: trace.step, call, attempt: who.attempt };
    // One fault of each kind acts at an attempt (the first listed); the wire marks each as it acts (#fired).
    const has = (kind: PlannedFault['spec']['kind']) => hits.find((hit) => hit.spec.kind === kind);
    for (const hit of hits) {
      // The task's permission for this tool is withdrawn from here on (this attempt was authorised already).
      if (hit.spec.kind === 'revoke_permission') this.#fired(hit);
      if (hit.spec.kind === 'concurrent_reserve') {
        this.#fired(hit);
        await this.#otherClient(request, hit.spec.qty ?? 1);
      }
    }
    const late = has('late_delivery');
    if (late) {
      // docs/spec.md §13: the request waits on the wire; the tool's clock (and its purge) goes on meanwhile.
      this.#fired(late);
      this.#d.clock.advance(late.spec.delay_ms ?? 0);
    }
    const transient = has('transient');
    if (transient) {
      this.#fired(transient);
      throw this.#fail(request.name, new TransientError('unavailable', { definite: true }), by);
    }
    let crashBefore = has('crash_before_commit');
    if (crashBefore && !IN_TRANSACTION.has(request.name)) {
      // A read has no transaction to be inside: the process dies before the tool runs.
      this.#fired(crashBefore);
      this.#d.crash('crash_before_commit', message('trace.crash.beforeRan', { tool: request.name }));
    }
    // docs/spec.md §14: a transport may repeat a request the tool can recognise, never one with no key.
    const duplicate = KEYLESS_TOOLS.has(request.name) ? undefined : has('duplicate_delivery');
    if (duplicate) {
      this.#fired(duplicate);
      try {
        await this.#deliver(request, taskId, by, 1, crashBefore);
      } catch (error) {
        if (!isContractError(error)) throw error; // this first reply is lost anyway; the runner gets the second
      }
      crashBefore = undefined;
    }
    const value = await this.#deliver(request, taskId, by, duplicate ? 2 : undefined, crashBefore);

    const crashAfter = has('crash_after_commit');
    if (crashAfter) {
      this.#fired(crashAfter, this.#answered);
      this.#d.crash('crash_after_commit', message(this.#answered === 'committed' ? 'trace.crash.afterCommit' : 'trace.crash.afterAnswer', { tool: request.name }));
    }
    const lost = has('lost_reply');
    if (lost) {
      this.#fired(lost, this.#answered);
      throw this.#fail(request.name, new TransientError('lost_reply', { definite: false }), by);
    }
    trace.emit({ type: 'reply', by, tool: request.name, outcome: { ok: true, value }, delivered: true });
    return jsonCopy(value);
  }

  /** One delivery of a request to the tool, bracketed by snapshots. Throws the tool's ContractError. */
  async #deliver(request: ToolAction, taskId: string, by: Sender, delivery: 1 | 2 | undefined, crashBefore?: PlannedFault): Promise<unknown> {
    const { tool, trace } = this.#d;
    const sql = this.#sql;
    if (by === 'other' || delivery === 2) {
      this.#travel();
      trace.emit({ type: 'request', by, action: request, ...(delivery ? { delivery } : {}) });
    }
    const remote = REMOTE_TOOLS.has(request.name);
    if (!remote) await this.#purge();
    const before = await this.#snapshot.read();
    const midTransaction = crashBefore
      ? () => {
          // A correct store is inside its one transaction here; a broken one may already have committed part of it.
          const committed = !sql.inTransaction;
          const strike = (now: ToolSnapshot): void => {
            trace.emit({ type: 'db', by, tool: request.name, diff: diffSnapshots(before, now), committed });
            this.#fired(crashBefore);
            this.#d.crash('crash_before_commit', message(committed ? 'trace.crash.midway' : 'trace.crash.inTransaction', { tool: request.name }));
          };
          // What the transaction sees, on its own connection: at once on SQLite, awaited on PostgreSQL.
          const now = sql.run(readSnapshotOps(this.#d.limits === true));
          return now instanceof Promise ? now.then(strike) : strike(now);
        }
      : undefined;
    let value: unknown;
    try {
      const fence = by === 'runner' ? this.#d.fence : undefined;
      const context = { taskId, ...(midTransaction ? { midTransaction } : {}), ...(fence ? { fence } : {}) };
      const copy = { name: request.name, args: jsonCopy(request.args) };
      if (!remote) value = await tool.connection.run(tool.ops(copy, context));
      else if (this.#d.remote) value = await this.#d.remote.connection.run(this.#d.remote.ops(copy, context));
      else throw refuse('INVALID_ACTION', 'noRemote', { tool: String(JSON.stringify(request.name)) });
    } catch (error) {
      if (!isContractError(error)) throw error;
      const after = await this.#snapshot.read();
      const diff = diffSnapshots(before, after);
      if (!isEmptyDiff(diff)) trace.emit({ type: 'db', by, tool: request.name, diff, committed: true });
      const print = KEYED_WRITES.has(request.name) ? fingerprint(request.args) : undefined;
      trace.emit({
        type: 'reply',
        by,
        tool: request.name,
        outcome: { ok: false, error: errorInfo(error) },
        delivered: delivery !== 1,
        changedData: !isEmptyDiff(diff),
        ...(print !== undefined ? { receiptExisted: after.ledger.some((row) => row.key === request.args.key && row.fingerprint === print) } : {}),
        ...(print !== undefined && after.history?.some((row) => row.key === request.args.key && row.fingerprint === print) ? { effectExisted: true as const } : {}),
      });
      throw error;
    }
    const after = await this.#snapshot.read();
    const diff = diffSnapshots(before, after);
    if (KEYED_WRITES.has(request.name) || !isEmptyDiff(diff)) {
      const stored = isEmptyDiff(diff) ? after.ledger.find((row) => row.key === request.args.key) : undefined;
      const result = stored?.result as { reservation_id?: string; release_id?: string } | undefined;
      const receiptId = result?.reservation_id ?? result?.release_id; // a reservation's receipt, or a release's
      trace.emit({
        type: 'db',
        by,
        tool: request.name,
        diff,
        committed: true,
        ...(stored ? { ledgerHit: { key: stored.key, receiptId: receiptId ?? '?' } } : {}),
      });
    }
    if (by === 'runner' || by === 'relay') {
      const answered: Answered = !isEmptyDiff(diff) ? 'committed' : KEYED_WRITES.has(request.name) ? 'ledger' : 'read';
      if (ANSWER_RANK[answered] > ANSWER_RANK[this.#answered]) this.#answered = answered;
    }
    if (delivery === 1) trace.emit({ type: 'reply', by, tool: request.name, outcome: { ok: true, value: jsonCopy(value) }, delivered: false });
    return value;
  }

  /** docs/spec.md §5: another client (task `other`, its own key) reads the version and reserves the same item. */
  async #otherClient(request: ToolAction, qty: number): Promise<void> {
    const { counters, trace } = this.#d;
    const item = typeof request.args.item === 'string' ? request.args.item : 'camera';
    counters.otherReservations += 1;
    try {
      const stock = (await this.#deliver({ kind: 'tool', name: 'get_stock', args: { item } }, OTHER_CLIENT_TASK, 'other', undefined)) as { version: number };
      trace.emit({ type: 'reply', by: 'other', tool: 'get_stock', outcome: { ok: true, value: jsonCopy(stock) }, delivered: true });
      const args = { item, qty, expected_version: stock.version, key: `${OTHER_CLIENT_TASK}:reserve:${counters.otherReservations}` };
      const receipt = await this.#deliver({ kind: 'tool', name: 'reserve', args }, OTHER_CLIENT_TASK, 'other', undefined);
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
    this.#d.plan.fire(hit, this.#at);
    this.#d.trace.emit({ type: 'fault', fault: hit.spec, index: hit.index, ...(answered !== undefined ? { answered } : {}) });
  }

  #fail(tool: string, error: TransientError, by: Sender = 'runner'): TransientError {
    this.#d.trace.emit({ type: 'reply', by, tool, outcome: { ok: false, error: errorInfo(error) }, delivered: true });
    return error;
  }

  /** The tool's purge (docs/spec.md §13), before a request reaches it: what it deleted, in the trace. */
  async #purge(): Promise<void> {
    if (this.#d.limits !== true) return; // the chapter's tool keeps receipts for ever
    const before = await this.#snapshot.read();
    const purge = await this.#d.tool.connection.run(this.#d.tool.purgeOps());
    if (purge === null) return;
    this.#d.trace.emit({ type: 'purge', ...purge, diff: diffSnapshots(before, await this.#snapshot.read()) });
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
