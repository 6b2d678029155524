/**
 * One unit of exploration work: a scenario with one added fault and, at depth 2, every second fault its run
 * makes possible. Small enough to hand to a worker thread, big enough to be worth the trip.
 */
import type { FaultSpec } from '../faults/types.js';
import type { Scenario } from '../scenario/types.js';
import { secondFaults } from './enumerate.js';
import { runWith, verdictOf } from './runSchedule.js';
import { Tally } from './tally.js';
import type { Target } from '../sim/target.js';

export interface Task {
  /** Index of the scenario in the list being explored. */
  scenario: number;
  first: FaultSpec;
}

export function runTask(scenario: Scenario, first: FaultSpec, depth: number, target: Target, tally = new Tally()): Tally {
  const run = runWith(scenario, [first], target);
  tally.add([first], verdictOf(run, 1));
  if (depth >= 2) {
    for (const second of secondFaults(run, first, scenario.faults.length)) {
      const pair = [first, second];
      tally.add(pair, verdictOf(runWith(scenario, pair, target), 2));
    }
  }
  return tally;
}
