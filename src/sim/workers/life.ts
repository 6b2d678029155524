/**
 * One life of a worker's process (docs/spec.md §10–11): its own connection to the shared database, the queue as
 * it reaches it (claims and finishes crossing the wire), and — for each grant — a session that recovers the task
 * from its log and steps the runner with every write under the grant's fence. A crash ends the life: the
 * connection closes first (SQLite, or the PostgreSQL server, rolls back what it had not committed), then the Crash
 * is thrown into whatever was running; the harness starts a new life after the restart time. The worker faults of
 * §11 strike here, at their named points.
 */
import { canonicalJson, canonicalRoundTrip, jsonCopy } from '../../core/canonical.js';
import { Crash, type CrashPoint } from '../../core/crash.js';
import { RENEW_WHEN_LEFT } from '../../core/defaults.js';
import type { SqlConnection } from '../../core/sql.js';
import type { WorkerPointName } from '../../faults/types.js';
import { isContractError, TransientError, type ContractError } from '../../inventory/errors.js';
import type { QueueStore, Fence, Grant, Turns } from '../../queue/QueueStore.js';
import type { EventLog, LoggedEvent } from '../../runner/EventStore.js';
import type { QueueClient, TaskRunner, Worker } from '../../runner/ReferenceWorker.js';
import { initialState, type RunnerState, type ToolAction } from '../../runner/state.js';
import type { AttemptContext, ToolClient } from '../../runner/ToolClient.js';
import { message, type Message } from '../../core/message.js';
import type { SimCode } from '../codes.js';
import { FaultyNetwork } from '../FaultyNetwork.js';
import { crashCaughtReturned, crashCaughtThrew, looksLikeState } from '../runnerFailure.js';
import type { Crew } from './crew.js';
import type { ActorHandle } from './Scheduler.js';

/** Ends the whole run from inside an actor: the runner threw, or the step bound was reached. */
export class Halt extends Error {
  override readonly name = 'Halt';
}

const isStale = (error: unknown): error is ContractError => isContractError(error) && error.code === 'STALE_FENCE';

export class WorkerLife implements QueueClient, TaskRunner {
  readonly worker: Worker;
  crashed: Crash | null = null;
  readonly #crew: Crew;
  readonly #self: ActorHandle;
  readonly #db: SqlConnection;
  readonly #store: QueueStore;
  /** This worker's grants so far (across its lives: a fault names the n-th), and whether its last claim found nothing. */
  readonly #claims: { count: number; lastEmpty: boolean };
  /** The last line of the task's log this life committed or read back: what a crash now would rebuild. */
  #lastSaved: { seq: number; json: string; state: RunnerState } | null = null;
  /** The lease's expiry as this life last heard it (a grant, a renewal). */
  #leaseUntil = 0;
  /** Renewals are skipped until then (a starved heartbeat). */
  #starvedUntil = -1;
  /** The state this life's last session ended with: what the worker finishes the task on. */
  #ended: RunnerState | null = null;

  /** A new life: the process starts, and connects. */
  static async start(crew: Crew, self: ActorHandle, claims: { count: number; lastEmpty: boolean }): Promise<WorkerLife> {
    return new WorkerLife(crew, self, claims, await crew.storage.connect());
  }

  private constructor(crew: Crew, self: ActorHandle, claims: { count: number; lastEmpty: boolean }, connection: SqlConnection) {
    this.#crew = crew;
    this.#self = self;
    this.#claims = claims;
    this.#db = connection;
    const turns: Turns = { at: () => this.#turn(), busy: (point) => this.#busy(point) };
    this.#store = new crew.impl.queue({ db: this.#db, clock: crew.world.clock, leaseMs: crew.spec.lease_ms, turns, actor: self.name });
    this.worker = new crew.impl.worker({ queue: this, tasks: this, clock: crew.world.clock });
  }

  get name(): string {
    return this.#self.name;
  }

  // ── the queue, as the worker reaches it ──

  async claim(): Promise<Grant | null> {
    const { world } = this.#crew;
    this.#crew.holding.add(this.name); // a claim under way may yet grant: the run is not over until it has
    await this.#turn(); // the claim crosses the wire
    const grant = await this.#store.claim(this.name);
    if (grant === null) this.#crew.holding.delete(this.name);
    const n = grant === null ? this.#claims.count : (this.#claims.count += 1);
    // An empty claim is said once per idle spell: an idle worker polls, and each poll would say the same.
    if (grant !== null || !this.#claims.lastEmpty) {
      world.trace.emit({ type: 'claim', granted: grant === null ? null : { task: grant.task, token: grant.token, leaseUntil: grant.leaseUntilMs, reclaim: grant.reclaim, grant: n } });
    }
    this.#claims.lastEmpty = grant === null;
    await this.#crew.observe();
    if (grant === null) return null;
    for (const hit of world.plan.atWorker(this.name, 'claim', { grant: n }, world.trace.step)) {
      world.trace.emit({ type: 'fault', fault: hit.spec, index: hit.index });
      throw new TransientError('lost_reply', { definite: false });
    }
    this.#leaseUntil = grant.leaseUntilMs; // held until its cycle ends: a zombie has yet to meet its refusal
    await this.#faults('claimed', {});
    return grant;
  }

  complete(grant: Grant, status: string): Promise<void> {
    return this.#finish(grant, 'complete', status);
  }

  fail(grant: Grant, status: string): Promise<void> {
    return this.#finish(grant, 'fail', status);
  }

  async lease(grant: Grant) {
    await this.#turn();
    return this.#store.readRow(grant.task);
  }

  async #finish(grant: Grant, op: 'complete' | 'fail', status: string): Promise<void> {
    const { world } = this.#crew;
    await this.#faults('finish', {});
    await this.#turn();
    const fence: Fence = { task: grant.task, owner: grant.owner, token: grant.token };
    try {
      await (op === 'complete' ? this.#store.complete(fence, status) : this.#store.fail(fence, status));
    } catch (error) {
      if (isStale(error)) {
        world.trace.emit({ type: 'holder', op, task: grant.task, token: grant.token, ok: false, message: error.message });
        world.trace.emit({ type: 'lease_lost', task: grant.task, token: grant.token });
      }
      await this.#crew.observe();
      throw error;
    }
    world.trace.emit({ type: 'holder', op, task: grant.task, token: grant.token, ok: true, result: status });
    await this.#crew.observe();
    this.#crew.finished(this.#ended);
  }

  // ── a session: the task run under one grant ──

  async run(grant: Grant, options: { beforeWrite?: () => Promise<void> } = {}): Promise<RunnerState> {
    try {
      return await this.#session(grant, options.beforeWrite);
    } catch (error) {
      if (isStale(error)) this.#crew.world.trace.emit({ type: 'lease_lost', task: grant.task, token: grant.token });
      throw error;
    }
  }

  async #session(grant: Grant, beforeWrite: (() => Promise<void>) | undefined): Promise<RunnerState> {
    const crew = this.#crew;
    const { world, scenario } = crew;
    const { trace } = world;
    const fence: Fence = { task: grant.task, owner: grant.owner, token: grant.token };
    const events = this.#log(fence, beforeWrite);
    const tools = this.#wire(fence, beforeWrite);
    const runner = new crew.impl.runner({ policy: crew.policy, events, tools });
    await runner.ready?.();
    // Recovery: the task's state is its log's last committed line, whoever wrote it.
    const last = await this.#store.lastEvent(grant.task);
    let state: RunnerState | null = last === null ? null : (JSON.parse(last.state) as RunnerState);
    this.#lastSaved = last === null ? null : { seq: last.seq, json: last.state, state: jsonCopy(state!) };
    trace.emit({ type: 'recovered', seq: last?.seq ?? null, state: state === null ? null : jsonCopy(state) });
    state ??= await events.save(initialState(scenario.task), 'started');
    while (state.status === 'running') {
      if (crew.steps >= crew.maxSteps) throw new Halt('step bound');
      await this.#heartbeat(fence);
      crew.steps += 1;
      trace.step = crew.steps;
      let returned: RunnerState;
      try {
        returned = await runner.step(state);
      } catch (error) {
        if (this.crashed !== null) {
          if (error !== this.crashed) trace.emit({ type: 'crash_caught', how: crashCaughtThrew(error) });
          throw this.crashed;
        }
        if (isStale(error)) throw error;
        crew.runnerThrew(error);
        throw new Halt('runner error');
      }
      if (this.crashed !== null) {
        trace.emit({ type: 'crash_caught', how: crashCaughtReturned() });
        throw this.crashed;
      }
      if (!looksLikeState(returned)) {
        crew.runnerReturned(returned);
        throw new Halt('runner error');
      }
      state = returned;
      crew.lastState = state;
      const saved = this.#lastSaved;
      if (saved === null || canonicalJson(returned) !== saved.json) {
        crew.unsaved.push({ step: crew.steps, seq: saved?.seq ?? null, logged: saved === null ? null : jsonCopy(saved.state), returned: jsonCopy(returned) });
      }
    }
    crew.lastState = state;
    this.#ended = state;
    return state;
  }

  /** The heartbeat, between two steps: renew once less than half the lease is left — unless starved. */
  async #heartbeat(fence: Fence): Promise<void> {
    const { world, spec } = this.#crew;
    const now = world.clock.nowMs();
    if (now < this.#leaseUntil - spec.lease_ms * RENEW_WHEN_LEFT || now < this.#starvedUntil) return;
    await this.#turn();
    try {
      this.#leaseUntil = await this.#store.renew(fence);
    } catch (error) {
      if (isStale(error)) world.trace.emit({ type: 'holder', op: 'renew', task: fence.task, token: fence.token, ok: false, message: error.message });
      await this.#crew.observe();
      throw error;
    }
    world.trace.emit({ type: 'holder', op: 'renew', task: fence.task, token: fence.token, ok: true, leaseUntil: this.#leaseUntil });
    await this.#crew.observe();
  }

  /** The task's log as the runner writes it: every line under the grant's fence, in the INSERT itself. */
  #log(fence: Fence, beforeWrite: (() => Promise<void>) | undefined): EventLog {
    const life = this;
    const { world } = this.#crew;
    const store = this.#store;
    return {
      async save<S extends RunnerState>(state: S, label: string): Promise<S> {
        await life.#turn();
        await beforeWrite?.();
        const { json, copy } = canonicalRoundTrip(state);
        let seq: number;
        try {
          seq = await store.append(fence, label, json);
        } catch (error) {
          if (isStale(error)) world.trace.emit({ type: 'save_refused', label, token: fence.token, message: error.message });
          throw error;
        }
        // The commit point of a log line: now a crash may strike.
        const saved = copy as RunnerState;
        life.#lastSaved = { seq, json, state: saved };
        world.trace.emit({ type: 'saved', seq, label, state: saved, token: fence.token });
        const hit = world.plan.afterEvent(seq, label, saved.pending?.name ?? null, world.trace.step, life.name);
        if (hit !== null) {
          world.trace.emit({ type: 'fault', fault: hit.spec, index: hit.index });
          life.crash('crash_after_event', message<SimCode>('workers.crash.afterEvent', { seq, label, worker: life.name }));
        }
        await life.#faults('saved', { label });
        return state;
      },
      async last() {
        return (await this.lastEvent())?.state ?? null;
      },
      async lastEvent(): Promise<LoggedEvent | null> {
        const row = await store.lastEvent(fence.task);
        return row === null ? null : { seq: row.seq, label: row.label, state: JSON.parse(row.state) as RunnerState };
      },
      async all(): Promise<LoggedEvent[]> {
        return life.#crew.readLog(life.#db);
      },
    };
  }

  /** The wire as the runner reaches it: a turn before each request leaves, the worker's faults there, then the chapter's wire with the fence. */
  #wire(fence: Fence, beforeWrite: (() => Promise<void>) | undefined): ToolClient {
    const crew = this.#crew;
    const { world } = crew;
    const network = new FaultyNetwork({
      tool: new crew.impl.tool({ db: this.#db, rng: world.toolRng, clock: world.clock }),
      db: this.#db,
      plan: world.plan,
      trace: world.trace,
      clock: world.clock,
      rng: world.wireRng,
      counters: world.counters,
      crash: (point, said) => this.crash(point, said),
      worker: this.name,
      fence: this.#store.toolFence(fence),
      shared: true,
    });
    return {
      execute: async (action: ToolAction, at: AttemptContext): Promise<unknown> => {
        await this.#turn();
        if (action.name === 'reserve') await beforeWrite?.();
        await this.#faults('request', { tool: action.name, attempt: at.attempt, call: at.call });
        await this.#store.writable(); // only a claim or a sweep holds the write lock across a turn: wait it out
        try {
          return await network.execute(action, at);
        } finally {
          if (this.crashed === null) await crew.observe();
        }
      },
    };
  }

  /** The worker faults at this point of its loop, in plan order. */
  async #faults(point: WorkerPointName, at: { tool?: string; attempt?: number; call?: number; label?: string }): Promise<void> {
    const { world, spec } = this.#crew;
    const { trace, clock } = world;
    for (const hit of world.plan.atWorker(this.name, point, { grant: this.#claims.count, ...at }, trace.step)) {
      trace.emit({ type: 'fault', fault: hit.spec, index: hit.index });
      switch (hit.spec.kind) {
        case 'worker_crash':
          this.crash('worker_crash', message<SimCode>('workers.crash.processDies', { worker: this.name }));
          break;
        case 'heartbeat_starved':
          this.#starvedUntil = clock.nowMs() + (hit.spec.ms ?? spec.lease_ms);
          trace.emit({ type: 'starved', until: this.#starvedUntil });
          break;
        case 'worker_pause': {
          const from = clock.nowMs();
          const until = from + (hit.spec.ms ?? 0);
          trace.emit({ type: 'paused', until, why: hit.spec.kind });
          await this.#self.sleep(until - from);
          trace.emit({ type: 'woke', pausedAt: from });
          break;
        }
        case 'lease_expires': {
          // Stalled between what it read and what it writes: until the task is granted to another — or, if nobody
          // takes it, `ms` past the lease's expiry (default one sweep and one poll).
          const from = clock.nowMs();
          const until = Math.max(from, this.#leaseUntil) + (hit.spec.ms ?? spec.sweep_every_ms + spec.poll_ms);
          const task = this.#crew.scenario.task.id;
          const mine = this.#crew.rows().find((row) => row.task_id === task)?.token ?? 0;
          trace.emit({ type: 'paused', until, why: hit.spec.kind });
          await this.#self.until(() => this.#crew.rows().some((row) => row.task_id === task && row.token > mine && row.owner !== this.name), until);
          trace.emit({ type: 'woke', pausedAt: from });
          break;
        }
        case 'claim_reply_lost':
          break; // struck at the claim itself
      }
    }
  }

  /** An interleaving point of this life. */
  #turn(): Promise<void> {
    this.#busyOp = null;
    return this.#self.turn();
  }

  /** A statement met another's write lock: said once per wait, then this actor waits its turn. */
  #busyOp: string | null = null;
  async #busy(point: string): Promise<void> {
    // An idle worker's poll says nothing (see claim), its waits included.
    const idle = point.startsWith('claim') && this.#claims.lastEmpty;
    if (this.#busyOp !== point && !idle) this.#crew.world.trace.emit({ type: 'busy', op: point });
    this.#busyOp = point;
    await this.#self.busy();
  }

  /** The process dies at `point`: its connection closes first, then the Crash is thrown into whoever called. */
  crash(point: CrashPoint, said: Message<SimCode>): never {
    this.#crew.world.trace.emit({ type: 'crash', point, message: said });
    this.#crew.storage.crash(this.#db); // nothing this life does after this can be committed
    this.crashed = new Crash(point, said);
    throw this.crashed;
  }
}
