/**
 * Exploring the interleavings of many workers (docs/spec.md §11.1). A many-worker run is decided by its seed
 * and by the scheduler's choices (src/sim/workers/Scheduler.ts): wherever two or more actors could move, the
 * longest-waiting one does, unless the schedule names another. Naming another is a PRE-EMPTION: the turn is
 * taken from the actor whose turn it was — one that could still move — and given to another ready one.
 *
 * The explorer runs every interleaving that differs from its root run (the scenario as written, or with an
 * added fault) in at most `budget` pre-emptions, each exactly once (iterative pre-emption bounding, as in
 * CHESS): the children of a run pre-empt at one of ITS choices after its own last pre-emption, each other ready
 * actor in turn. A child replays its parent up to that choice — the scenario's own schedule entries before it
 * included, those from it on dropped (they named moments of the run as written) — and moves by default after
 * it, so a child's schedule is plain data (`workers.schedule`) that `faultlab run` replays exactly.
 *
 * Pruned: a run that repeats one already run in the same exploration — the same trace, event for event and
 * lane for lane, so the same figures and the same verdict — is counted but not extended; the pre-emptions its
 * extensions would add are counted as pruned. Most pre-emptions change nothing anyone can see (an actor whose
 * move is a wait, a sweep that finds nothing), and their runs repeat their parent's.
 */
import { createHash } from 'node:crypto';
import type { FaultSpec } from '../faults/types.js';
import type { RunResult } from '../check/RunResult.js';
import type { Scenario, ScheduleChoice } from '../scenario/types.js';
import { runForVerdict, verdictOf } from './runSchedule.js';
import type { Tally } from './tally.js';
import type { Target } from './target.js';

/** Pre-emptions per explored run, by default (`faultlab explore --preemptions`): each added fault takes one of them. */
export const DEFAULT_PREEMPTIONS = 2;

/** The pre-emptions left for the interleavings of a run with `added` faults: one fewer per added fault. */
export function preemptionsWith(bound: number, added: number): number {
  return Math.max(0, bound - added);
}

/** The scenario with this schedule in place of its own. */
export function withSchedule(scenario: Scenario, schedule: readonly ScheduleChoice[]): Scenario {
  return { ...scenario, workers: { ...scenario.workers!, schedule: [...schedule] } };
}

/** A child's whole schedule: the scenario's own entries before its first pre-emption, then its pre-emptions. */
export function scheduleOf(own: readonly ScheduleChoice[], changes: readonly ScheduleChoice[]): ScheduleChoice[] {
  const first = changes[0]?.choice ?? Number.POSITIVE_INFINITY;
  return [...own.filter((entry) => entry.choice < first), ...changes];
}

/** Every pre-emption a run offers after its choice `after` and its trace's event `from`: at each of its choices, each ready actor that did not move there. */
export function preemptionsOf(run: RunResult, after: number, from = 0): ScheduleChoice[] {
  return (run.workers?.choices ?? []).filter((c) => c.choice > after && c.at >= from).flatMap((c) => c.ready.filter((actor) => actor !== c.ran).map((actor) => ({ choice: c.choice, run: actor })));
}

/** Where in `run`'s trace the fault of plan index `index` struck (null: it never did). */
function struck(run: RunResult, index: number): number | null {
  const at = run.trace.findIndex((event) => event.type === 'fault' && event.index === index);
  return at === -1 ? null : at;
}

/** One string per run as a reader sees it: equal traces, equal runs. */
export function traceKey(run: RunResult): string {
  return createHash('sha256').update(JSON.stringify(run.trace)).digest('hex');
}

/**
 * The interleavings of `root` (the run of `scenario` with `added` on top of its own faults) within `budget`
 * pre-emptions, the root excluded, each judged by the rules and counted in `tally`.
 */
export async function exploreInterleavings(scenario: Scenario, added: readonly FaultSpec[], root: RunResult, budget: number, target: Target, tally: Tally): Promise<void> {
  if (budget <= 0 || scenario.workers === undefined) return;
  const own = scenario.workers.schedule;
  const seen = new Set<string>([traceKey(root)]);
  // With added faults, pre-emptions only from the moment the last of them struck — the races that fault opens
  // (part of the bound: it keeps the product of faults and interleavings small). One that never struck adds none.
  const from = added.length === 0 ? 0 : struck(root, scenario.faults.length + added.length - 1);
  if (from === null) return;
  const extend = (run: RunResult, changes: ScheduleChoice[]) => preemptionsOf(run, changes.at(-1)?.choice ?? 0, from).map((change) => [...changes, change]);
  // Fewest pre-emptions first (so the first run to break a rule is one of the smallest), then in the order of the
  // choices and of the ready actors: the same order on every machine, so the same tallies and the same first violation.
  const queue = extend(root, []);
  for (let next = 0; next < queue.length; next += 1) {
    const changes = queue[next]!;
    const schedule = scheduleOf(own, changes);
    const run = await runForVerdict(withSchedule(scenario, schedule), added, target);
    const key = traceKey(run);
    const repeated = seen.has(key);
    seen.add(key);
    tally.addInterleaving(added, verdictOf(run, added.length), changes.length, schedule, repeated);
    if (changes.length >= budget) continue;
    const more = extend(run, changes);
    if (repeated) tally.interleavings.pruned += more.length;
    else queue.push(...more);
  }
}
