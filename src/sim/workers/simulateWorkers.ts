/**
 * The harness for many workers (docs/spec.md §10–11): the scenario's task goes into a queue in the tool's
 * database, `workers.count` workers — each a process of its own, with its own connection — claim it and run it
 * with the scenario's runner, and a sweeper returns expired leases to the queue. One scheduler (Scheduler.ts)
 * moves them one at a time at every wire and database boundary, from one seed; a crash ends only the crashed
 * worker's life (life.ts), which starts again after the restart time. The run is the same value a single runner's
 * is (Run), judged by the same verdict, with the queue's side added (`workers`).
 */
import { DEFAULT_SEED, MAX_STEPS, MAX_TURNS, RESTART_MS } from '../../core/defaults.js';
import { InventoryTool } from '../../inventory/InventoryTool.js';
import { readSnapshotOps } from '../../inventory/snapshot.js';
import { ledgerTokenOps, QueueStore, type QueueClass } from '../../queue/QueueStore.js';
import { ScriptedPolicy } from '../../runner/policy.js';
import { ReferenceRunner } from '../../runner/ReferenceRunner.js';
import { ReferenceWorker, type WorkerClass } from '../../runner/ReferenceWorker.js';
import type { Scenario } from '../../scenario/types.js';
import type { Run } from '../Run.js';
import type { FaultSpec } from '../../faults/types.js';
import type { ToolClass } from '../../inventory/InventoryTool.js';
import type { RunnerClass } from '../../runner/BaseRunner.js';
import { newWorld } from '../world.js';
import { Crew } from './crew.js';
import { Halt, WorkerLife } from './life.js';
import { Scheduler, type ActorHandle } from './Scheduler.js';
import { openWorkersDatabase } from './databases.js';

/** What a many-worker run may be handed beyond a single runner's options: a broken queue or worker (src/mutants). */
export interface WorkersOptions {
  queue?: QueueClass;
  worker?: WorkerClass;
}

/** The options of `simulate` a many-worker run reads (the rest — storage, checkpoints, kept connections — are one runner's). */
interface RunOptions extends WorkersOptions {
  runner?: RunnerClass;
  tool?: ToolClass;
  seed?: number;
  extraFaults?: readonly FaultSpec[];
  maxSteps?: number;
  keepDir?: string;
  /** The PostgreSQL server to run on (a schema of its own there), instead of a SQLite file. */
  postgres?: string;
}

/** The lane of the process that returns expired leases to the queue. */
export const SWEEPER = 'sweeper';

export function workerNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `w${i + 1}`);
}

export async function simulateWorkers(scenario: Scenario, options: RunOptions = {}): Promise<Run> {
  const spec = scenario.workers!;
  const seed = options.seed ?? DEFAULT_SEED;
  const world = newWorld(scenario, seed, options.extraFaults ?? []);
  const { database: storage, setup } = await openWorkersDatabase(scenario, { ...(options.keepDir !== undefined ? { keepDir: options.keepDir } : {}), ...(options.postgres !== undefined ? { postgres: options.postgres } : {}) });
  try {
    const QueueImpl = options.queue ?? QueueStore;
    const scheduler = new Scheduler(world.clock, world.trace, spec.schedule, MAX_TURNS);
    const impl = { runner: options.runner ?? ReferenceRunner, tool: options.tool ?? InventoryTool, queue: QueueImpl, worker: options.worker ?? ReferenceWorker };
    // The harness's own connection: it only reads, so it sees only what was committed.
    const observer = new QueueStore({ db: setup, clock: world.clock, leaseMs: spec.lease_ms });
    const crew = new Crew(world, scenario, spec, storage, scheduler, impl, new ScriptedPolicy(scenario.script), options.maxSteps ?? MAX_STEPS, observer, await observer.readRows());
    const names = workerNames(spec.count);
    for (const name of names) scheduler.spawn(name, (self) => workerLoop(crew, self));
    scheduler.spawn(SWEEPER, (self) => sweeperLoop(crew, self));

    await scheduler.run(() => crew.over(), () => crew.observe());

    world.trace.lane = undefined;
    const thrown = scheduler.errors[0];
    if (thrown !== undefined && crew.runnerError === null) crew.runnerThrew(thrown.error);
    const state = crew.finishedState ?? crew.lastState;
    world.trace.emit({ type: 'finished', status: state?.status ?? 'none', steps: crew.steps });
    const log = await crew.readLog(setup);
    const tasks = await observer.readRows();
    const db = await setup.run(readSnapshotOps());
    const tokens = await setup.run(ledgerTokenOps(setup.dialect));
    return {
      scenario,
      seed,
      runner: impl.runner.name || 'anonymous runner',
      storage: storage.kind,
      trace: world.trace.events,
      log,
      state: state ?? log.at(-1)?.state ?? null,
      db,
      faults: world.plan.faults,
      runnerRequests: world.counters.runnerRequests,
      steps: crew.steps,
      crashes: crew.crashes,
      runnerError: crew.runnerError,
      maxSteps: options.maxSteps ?? MAX_STEPS,
      replays: [],
      dlq: [],
      unsaved: crew.unsaved,
      workers: {
        names,
        leaseMs: spec.lease_ms,
        sweepEveryMs: spec.sweep_every_ms,
        pollMs: spec.poll_ms,
        tasks,
        tokens,
        choices: scheduler.choices,
        unapplied: spec.schedule.filter((entry) => !scheduler.applied.has(entry.choice)),
        turns: scheduler.turns,
        cut: scheduler.cut,
      },
    };
  } finally {
    await storage.dispose();
  }
}

/** A worker: lives one after another (a crash ends one, a restart begins the next), each claiming until the run is over. */
async function workerLoop(crew: Crew, self: ActorHandle): Promise<void> {
  const claims = { count: 0, lastEmpty: false };
  for (let life = 1; ; life += 1) {
    crew.world.trace.emit({ type: 'started', life });
    const current = await WorkerLife.start(crew, self, claims);
    try {
      for (;;) {
        if (crew.over()) return;
        const outcome = await current.worker.cycle();
        crew.holding.delete(self.name);
        if (outcome === 'idle') await self.sleep(crew.spec.poll_ms);
      }
    } catch (error) {
      crew.holding.delete(self.name);
      if (error instanceof Halt) {
        crew.halted = true;
        return;
      }
      if (current.crashed === null) throw error; // a bug, or a worker that threw: the scheduler records it
      crew.crashes += 1;
      await crew.storage.settled(); // its connection gone (on PostgreSQL, its lock with it) before anyone else moves
      await self.sleep(RESTART_MS);
    }
  }
}

/** The sweeper (the rescuer): every `sweep_every_ms`, expired leases go back to the queue. */
async function sweeperLoop(crew: Crew, self: ActorHandle): Promise<void> {
  const { world, spec } = crew;
  const store = new crew.impl.queue({ db: await crew.storage.connect(), clock: world.clock, leaseMs: spec.lease_ms, turns: { at: () => self.turn(), busy: () => self.busy() }, actor: SWEEPER });
  for (;;) {
    await self.sleep(spec.sweep_every_ms);
    if (crew.over()) return;
    crew.holding.add(SWEEPER); // a sweep under way may yet write: the run is not over until it has
    const returned = await store.sweep();
    crew.holding.delete(SWEEPER);
    if (returned.length > 0) world.trace.emit({ type: 'sweep', returned: returned.map((r) => ({ task: r.task, owner: r.owner, token: r.token, leaseUntil: r.leaseUntilMs })) });
    await crew.observe();
  }
}
