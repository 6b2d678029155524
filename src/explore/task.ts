/**
 * One unit of exploration work: a scenario with one added fault and, at depth 2, every second fault its run
 * makes possible. Small enough to hand to a worker thread, big enough to be worth the trip.
 */
import type { FaultSpec } from '../faults/types.js';
import type { Scenario } from '../scenario/types.js';
import { secondFaults } from './enumerate.js';
import { exploreInterleavings, preemptionsWith } from './interleavings.js';
import { Bases, resumePoint, runFrom, runPaused, runRemembered } from './fork.js';
import { runForVerdict, verdictOf } from './runSchedule.js';
import { Tally } from './tally.js';
import type { Target } from './target.js';

export interface Task {
  /** Index of the scenario in the list being explored. */
  scenario: number;
  /** Null: a many-worker scenario's interleavings as written (its run as written is counted by explore). */
  first: FaultSpec | null;
}

/**
 * The task's schedules, each judged and counted. Where the runner allows (fork.ts), each starts from the
 * last pause of the run it extends — the scenario as written for the first fault, the first fault's run for
 * the second — instead of from the beginning; the runs, and so the tally, are the same either way.
 */
export async function runTask(scenario: Scenario, first: FaultSpec | null, depth: number, target: Target, bases: Bases, preemptions: number, tally = new Tally()): Promise<Tally> {
  if (scenario.workers !== undefined) return await workersTask(scenario, first, depth, target, preemptions, tally);
  if (first === null) return tally;
  const base = await bases.of(scenario);
  const from = base ? resumePoint(base, first) : null;
  const parent = base && depth >= 2 ? await runPaused(scenario, [first], target, from, bases.kept) : null;
  const run = parent?.run ?? (await runRemembered(scenario, [first], target, base ? { from } : null, bases));
  tally.add([first], verdictOf(run, 1));
  if (depth >= 2) {
    for (const second of secondFaults(run, first, scenario.faults.length)) {
      const pair = [first, second];
      const pairRun = parent ? await runFrom(scenario, pair, target, resumePoint(parent, second), bases.kept) : await runForVerdict(scenario, pair, target);
      tally.add(pair, verdictOf(pairRun, 2));
    }
  }
  return tally;
}

/**
 * A many-worker scenario's share (interleavings.ts): with `first` (or none), the run on the default interleaving
 * and its interleavings within the pre-emptions left; at depth 2 each second fault likewise.
 */
async function workersTask(scenario: Scenario, first: FaultSpec | null, depth: number, target: Target, preemptions: number, tally: Tally): Promise<Tally> {
  const added = first === null ? [] : [first];
  const run = await runForVerdict(scenario, added, target);
  if (first !== null) tally.add(added, verdictOf(run, 1));
  await exploreInterleavings(scenario, added, run, preemptionsWith(preemptions, added.length), target, tally);
  if (first !== null && depth >= 2) {
    for (const second of secondFaults(run, first, scenario.faults.length)) {
      const pair = [first, second];
      const pairRun = await runForVerdict(scenario, pair, target);
      tally.add(pair, verdictOf(pairRun, 2));
      await exploreInterleavings(scenario, pair, pairRun, preemptionsWith(preemptions, 2), target, tally);
    }
  }
  return tally;
}
