/**
 * The runner's process, and what a crash does to it: the recovery protocol of docs/spec.md §2, in one file.
 *
 * What is true is only what was committed, and three writes commit anything:
 *   1. the tool's COMMIT at the end of `reserve` (src/inventory/InventoryTool.ts): the effect and its receipt,
 *      together or not at all;
 *   2. the event log's INSERT in `EventStore.save` (src/runner/EventStore.ts): the runner's state under a label —
 *      and, in the same transaction, the dead letter of an exhausted intent (src/durability/seams/deadLetter.ts);
 *   3. the pillars' own rows in the runner's database (the breaker's window), each write its own transaction.
 * Past the chapter (docs/spec.md §13–§14) the tool side commits a few more, each its own transaction: the purge
 * (receipts deleted, tombstones left), `close_task`, a `release` (with its ledger row, like `reserve`), the remote
 * service's charge, and the outbox relay's count and settlement of a message (simulate.ts: `Drive.relay`).
 * The tool commits first, the runner saves what it was told afterwards: the gap between 1 and 2 is the lesson.
 *
 * A crash (`crash`) is the process dying at a named point: both connections are closed first — so nothing the
 * runner does after it can be committed, and SQLite rolls back whatever transaction was open — and only then is
 * the Crash thrown into the runner's step. Recovery (`recover`) is the same however often it runs: new
 * connections on what was committed, a new process (a NEW runner instance, a new event store, wire and
 * pillars), and the state rebuilt from the last committed event. Nothing in memory survives but the world's:
 * the clock, the fault plan, the wire's counters, the trace (world.ts).
 */
import { RESTART_MS } from '../core/defaults.js';
import { canonicalJson, jsonCopy } from '../core/canonical.js';
import { Crash, type CrashPoint } from '../core/crash.js';
import { message, type Message } from '../core/message.js';
import type { SimCode } from './codes.js';
import type { RunDatabases } from '../core/storage.js';
import { CircuitBreaker } from '../durability/breaker/CircuitBreaker.js';
import { DeadLetterQueue } from '../durability/dlq/DeadLetterQueue.js';
import { BackoffClient } from '../durability/seams/BackoffClient.js';
import { BreakerClient } from '../durability/seams/BreakerClient.js';
import { deadLetterHook } from '../durability/seams/deadLetter.js';
import type { InventoryTool, ToolClass, ToolLimits } from '../inventory/InventoryTool.js';
import { PaymentService } from '../inventory/PaymentService.js';
import type { Runner, RunnerClass } from '../runner/BaseRunner.js';
import { EventStore, type LoggedEvent } from '../runner/EventStore.js';
import type { Policy } from '../runner/policy.js';
import type { RunnerState } from '../runner/state.js';
import type { ToolClient } from '../runner/ToolClient.js';
import { usesLimits, type Scenario } from '../scenario/types.js';
import { CheckedRetryClient } from './checkedRetry.js';
import { FaultyNetwork } from './FaultyNetwork.js';
import type { World } from './world.js';

/** The pillars at the wire, outermost first: the runner waits, then asks the breaker, then sends. */
export const SEAM_ORDER = ['backoff', 'breaker'] as const;

export interface ProcessSpec {
  scenario: Scenario;
  runner: RunnerClass;
  tool: ToolClass;
  policy: Policy;
}

/** One incarnation of the runner's process: what a crash ends and recovery builds anew. */
export interface Process {
  events: EventStore;
  dlq: DeadLetterQueue | null;
  network: FaultyNetwork;
  runner: Runner;
  /** The tool on this incarnation's connection: the outbox's relay reads and marks its messages through it. */
  tool: InventoryTool;
}

/** What the tool does past the chapter (docs/spec.md §13): null for the chapter's scenarios, the tool exactly as it was. */
export function toolLimits(scenario: Scenario): ToolLimits | null {
  return usesLimits(scenario) ? { retention: scenario.retention ?? null, history: true } : null;
}

/**
 * The process's side of the run: the connections it dies with, the crash that kills it, and each new
 * incarnation after one. `crashed` is the crash in flight until the harness has recovered from it.
 */
export class RunnerProcess {
  readonly #world: World;
  readonly #storage: RunDatabases;
  readonly #spec: ProcessSpec;
  #crashed: Crash | null = null;
  current!: Process;

  private constructor(world: World, storage: RunDatabases, spec: ProcessSpec) {
    this.#world = world;
    this.#storage = storage;
    this.#spec = spec;
  }

  /** The first incarnation, on the connections the run starts with. */
  static async start(world: World, storage: RunDatabases, spec: ProcessSpec): Promise<RunnerProcess> {
    const process = new RunnerProcess(world, storage, spec);
    process.current = await process.#build();
    return process;
  }

  get storage(): RunDatabases {
    return this.#storage;
  }

  /** The crash in flight (the harness recovers when step ends, however it ends), or null. */
  get crashed(): Crash | null {
    return this.#crashed;
  }

  /** The process dies at `point`: the connections go first, then the Crash is thrown into whoever called. */
  crash(point: CrashPoint, said: Message<SimCode>): never {
    this.#world.trace.emit({ type: 'crash', point, message: said });
    this.#storage.crash(); // nothing the runner does after this can be committed
    this.#crashed = new Crash(point, said);
    throw this.#crashed;
  }

  /** A new incarnation after a crash: the committed state, rebuilt from the log (null for an empty log). */
  async recover(): Promise<{ seq: number | null; state: RunnerState | null }> {
    const world = this.#world;
    this.#crashed = null;
    world.clock.advance(RESTART_MS);
    await this.#storage.reopen();
    this.current = await this.#build();
    const last = await this.current.events.lastEvent(world.committed);
    const state = last?.state ?? null;
    world.lastSaved = last === null ? null : { seq: last.seq, json: canonicalJson(last.state), state: last.state };
    world.trace.emit({ type: 'recovered', seq: last?.seq ?? null, state: state === null ? null : jsonCopy(state) });
    return { seq: last?.seq ?? null, state };
  }

  /** A new incarnation with no crash before it: a dead letter's replay runs through a fresh runner. */
  async restart(): Promise<void> {
    this.current = await this.#build();
  }

  /** A process: its runner, event store, wire and pillars, on the connections of the moment. */
  async #build(): Promise<Process> {
    const world = this.#world;
    const { scenario, runner: RunnerImpl, tool: ToolImpl, policy } = this.#spec;
    const { clock, trace, plan, pillars } = world;
    // The pillars' stores live in the runner's database, on its connection (either database's: src/durability/store.ts).
    const pillarDb = this.#storage.eventsSql;
    const dlq = pillars.dlq ? new DeadLetterQueue({ db: pillarDb, clock, config: { defaultTtlSeconds: pillars.dlq.ttlSeconds }, events: (e) => world.held.push(e) }) : null;
    // Commit point 2: the listener hears of an event only once its INSERT committed — then a crash may strike.
    const onSaved = (event: LoggedEvent, json: string) => {
      world.committed.set(event.seq, { label: event.label, json, state: event.state });
      world.lastSaved = { seq: event.seq, json, state: event.state };
      trace.emit({ type: 'saved', seq: event.seq, label: event.label, state: event.state });
      world.flushHeld();
      const hit = plan.afterEvent(event.seq, event.label, event.state.pending?.name ?? null, trace.step);
      if (hit !== null) {
        trace.emit({ type: 'fault', fault: hit.spec, index: hit.index });
        this.crash('crash_after_event', message('trace.crash.afterEvent', { seq: event.seq, label: event.label }));
      }
    };
    const hook = dlq ? deadLetterHook(dlq, { ttlSeconds: pillars.dlq!.ttlSeconds, scenario, replaying: () => world.replaying !== null }) : undefined;
    const events = new EventStore(this.#storage.eventsSql, onSaved, hook);
    const limits = toolLimits(scenario);
    const tool = new ToolImpl({ db: this.#storage.toolSql, rng: world.toolRng, clock, ...(limits ? { limits } : {}) });
    const remote = scenario.remote ? new PaymentService({ db: this.#storage.toolSql, rng: world.toolRng, clock, balance: scenario.remote.balance }) : null;
    const network = new FaultyNetwork({
      tool,
      remote,
      limits: limits !== null,
      db: this.#storage.toolSql,
      plan,
      trace,
      clock,
      rng: world.wireRng,
      counters: world.counters,
      crash: (point, said) => this.crash(point, said),
    });
    // The pillars wrap the wire from the inside out in SEAM_ORDER's reverse: an attempt first waits (backoff),
    // then asks the breaker, then goes on the wire.
    const toTrace = world.toTrace;
    const seams: Record<(typeof SEAM_ORDER)[number], (inner: ToolClient) => ToolClient> = {
      backoff: (inner) => (pillars.backoff ? new BackoffClient(inner, { plan: pillars.backoff, clock, rng: world.backoffRng!, events: toTrace }) : inner),
      breaker: (inner) => (pillars.breaker ? new BreakerClient(inner, new CircuitBreaker({ db: pillarDb, clock, config: pillars.breaker, events: toTrace })) : inner),
    };
    // docs/spec.md §14: the client of the keyless service asks before it resends, when the scenario says so.
    const client: ToolClient = scenario.remote?.retry === 'query' ? new CheckedRetryClient(network) : network;
    const tools = [...SEAM_ORDER].reverse().reduce<ToolClient>((inner, seam) => seams[seam](inner), client);
    const runner: Runner = new RunnerImpl({ policy, events, tools });
    await runner.ready?.(); // a runner in a box: its constructor there has run
    return { events, dlq, network, runner, tool };
  }
}
