/**
 * explore(scenarios, options): every scenario as written, then with one added fault at every point
 * (depth 1), then with a second one at every point the first leaves (depth 2), each run judged by the
 * rules (src/check/verdict.ts). Returns a tally per scenario; findings.ts shrinks what broke.
 */
import { DEFAULT_SEED } from '../core/defaults.js';
import type { Scenario } from '../scenario/types.js';
import type { StorageKind } from '../core/storage.js';
import { depthOneSchedules, workerFaults } from './enumerate.js';
import { DEFAULT_PREEMPTIONS } from './interleavings.js';
import { Bases } from './fork.js';
import { defaultWorkers, runTasks } from './pool.js';
import { simulateWith, verdictOf } from './runSchedule.js';
import { judge } from '../check/verdict.js';
import { Tally } from './tally.js';
import type { Task } from './task.js';
import { targetOf, type Target } from './target.js';
import { openRunner, type OpenedRunner } from '../target/runners.js';

export interface ExploreOptions {
  /** 1: one added fault per schedule; 2: one or two. Default 1. */
  depth?: number;
  /** Many workers: pre-emptions per run, one fewer per added fault (interleavings.ts; default DEFAULT_PREEMPTIONS). */
  preemptions?: number;
  seed?: number;
  /** Default 'memory': in-memory SQLite with the same crash model as files (only committed data survives). */
  storage?: StorageKind;
  /** Every schedule on the PostgreSQL server at this URL instead of SQLite (each run in a schema of its own, none forked). */
  postgres?: string;
  /** Worker threads (default: one per core). 1 runs everything in this thread. */
  workers?: number;
  /** The runner to explore, opened by the caller, who closes it when done with the exploration (default: the reference runner). */
  runner?: OpenedRunner;
  /** Or a runner class (and tool) given directly: runs in this thread, since a class cannot cross to a worker. */
  target?: Omit<Target, 'seed' | 'storage'>;
  onProgress?: (done: number, total: number) => void;
}

export interface ScenarioExploration {
  scenario: Scenario;
  tally: Tally;
}

export interface Exploration {
  depth: number;
  /** The bound on pre-emptions (many workers). */
  preemptions: number;
  seed: number;
  storage: StorageKind;
  /** The PostgreSQL server every schedule ran on, or absent (SQLite, `storage`). */
  postgres?: string;
  target: Target;
  scenarios: ScenarioExploration[];
  /** Everything, summed over the scenarios. */
  total: Tally;
}

export async function explore(scenarios: readonly Scenario[], options: ExploreOptions = {}): Promise<Exploration> {
  const depth = options.depth ?? 1;
  if (depth !== 1 && depth !== 2) throw new RangeError(`depth must be 1 or 2, got ${depth}`);
  const preemptions = options.preemptions ?? DEFAULT_PREEMPTIONS;
  if (!Number.isInteger(preemptions) || preemptions < 0) throw new RangeError(`preemptions must be a whole number, got ${preemptions}`);
  const seed = options.seed ?? DEFAULT_SEED;
  const storage = options.storage ?? 'memory';
  const opened = options.target ? null : (options.runner ?? (await openRunner({ kind: 'reference' }, 'reference')));
  const source = opened?.source ?? null;
  const postgres = options.postgres;
  const target: Target = options.target ? { ...options.target, seed, storage, ...(postgres !== undefined ? { postgres } : {}) } : targetOf(opened!, seed, storage, postgres);

  // The scenario as written: its own run sizes the schedules, and it is judged like any other.
  const explored: ScenarioExploration[] = [];
  const tasks: Task[] = [];
  const bases = new Bases(target);
  let tallies: Tally[];
  try {
    for (const [index, scenario] of scenarios.entries()) {
      const tally = new Tally();
      // Judged as `faultlab run` judges it (figures and all): the same run, the same verdict.
      const base = judge((await bases.of(scenario))?.run ?? (await simulateWith(scenario, [], target)), 'scenario');
      tally.add([], verdictOf(base, 0));
      explored.push({ scenario, tally });
      // Many workers: the interleavings of the run as written come first.
      if (scenario.workers !== undefined && preemptions > 0) tasks.push({ scenario: index, first: null });
      for (const [first] of [...depthOneSchedules(base), ...workerFaults(base)]) tasks.push({ scenario: index, first: first! });
    }

    tallies = await runTasks(tasks, {
      scenarios: [...scenarios],
      depth,
      preemptions,
      seed,
      storage,
      ...(postgres !== undefined ? { postgres } : {}),
      workers: options.workers ?? defaultWorkers(),
      source,
      target,
      bases,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  } finally {
    bases.close();
    if (postgres !== undefined) await (await import('../postgres/storage.js')).closeIdle(); // the schemas this thread's runs left idle
  }
  tallies.forEach((tally, i) => explored[tasks[i]!.scenario]!.tally.merge(tally));
  const total = new Tally();
  for (const one of explored) total.merge(one.tally);
  return { depth, preemptions, seed, storage, ...(postgres !== undefined ? { postgres } : {}), target, scenarios: explored, total };
}
