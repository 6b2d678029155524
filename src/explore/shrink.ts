/**
 * Shrinking: from a schedule that breaks an invariant to the smallest one that still breaks it. The
 * candidate faults are the scenario's own and the added ones together; every subset is tried from the
 * smallest up (a schedule has a handful of faults, so this is cheap and the result truly minimal: no smaller
 * subset breaks the invariant). Then each remaining fault's point is pinned with what the run shows there —
 * the tool and attempt, the event's label — which names the same point and reads like a lesson.
 */
import { isWorkerFault, type FaultSpec } from '../faults/types.js';
import type { Scenario, ScheduleChoice } from '../scenario/types.js';
import type { RunResult } from '../check/RunResult.js';
import { runWith } from './runSchedule.js';
import type { Target } from './target.js';

/** Above this many candidate faults, drop one at a time instead of trying every subset. */
const EXHAUSTIVE_UP_TO = 10;

export interface Shrunk {
  /** The smallest fault list (the whole plan of the replay scenario) that still breaks the invariant. */
  faults: FaultSpec[];
  /** Many workers: the smallest schedule (`workers.schedule`) that, with those faults, still breaks it. */
  schedule: ScheduleChoice[];
  run: RunResult;
  /** Runs the search took. */
  tries: number;
}

export function breaks(run: RunResult, invariant: string): boolean {
  return run.checks.some((check) => check.id === invariant && !check.passed);
}

/** The scenario with exactly these faults (its own replaced). */
export function withFaults(scenario: Scenario, faults: readonly FaultSpec[]): Scenario {
  return { ...scenario, faults: [...faults] };
}

/** The scenario with exactly these faults and, for many workers, this schedule (its own replaced). */
function withPlan(scenario: Scenario, faults: readonly FaultSpec[], schedule: readonly ScheduleChoice[]): Scenario {
  const plain = withFaults(scenario, faults);
  return scenario.workers === undefined ? plain : { ...plain, workers: { ...scenario.workers, schedule: [...schedule] } };
}

/** A fault, or (many workers) a choice of the schedule: what a shrink may keep or drop. */
type Part = { fault: FaultSpec } | { choice: ScheduleChoice };

/**
 * `schedule`: many workers, the scheduler's choices the run that broke it made otherwise than by default (the
 * scenario's own schedule when none is given); shrunk with the faults, each kept choice still naming a ready
 * actor at its moment.
 */
export async function shrink(scenario: Scenario, faults: readonly FaultSpec[], invariant: string, target: Target, schedule?: readonly ScheduleChoice[]): Promise<Shrunk> {
  if (scenario.workers === undefined) return { ...(await shrinkFaults(scenario, faults, invariant, target)), schedule: [] };
  const parts: Part[] = [...faults.map((fault) => ({ fault })), ...(schedule ?? scenario.workers.schedule).map((choice) => ({ choice }))];
  const split = (subset: readonly Part[]) => ({
    faults: subset.flatMap((part) => ('fault' in part ? [part.fault] : [])),
    schedule: subset.flatMap((part) => ('choice' in part ? [part.choice] : [])),
  });
  let tries = 0;
  const attempt = async (subset: readonly Part[]) => {
    tries += 1;
    const plan = split(subset);
    const run = await runWith(withPlan(scenario, plan.faults, plan.schedule), [], target);
    return breaks(run, invariant) && (run.workers?.unapplied.length ?? 0) === 0 ? run : null;
  };
  const best = await smallest(parts, attempt);
  if (best === null) throw new Error(`shrink: the schedule no longer breaks ${invariant} (is the runner deterministic?)`);
  const plan = split(best.subset);
  const pinned = pin(plan.faults, best.run);
  const check = await attempt([...pinned.map((fault) => ({ fault })), ...plan.schedule.map((choice) => ({ choice }))]);
  return check ? { faults: pinned, schedule: plan.schedule, run: check, tries } : { faults: plan.faults, schedule: plan.schedule, run: best.run, tries };
}

/** The smallest subset of `items` for which `attempt` gives a run (every subset from the smallest up, or one at a time when there are many). */
async function smallest<T>(items: readonly T[], attempt: (subset: T[]) => Promise<RunResult | null>): Promise<{ subset: T[]; run: RunResult } | null> {
  if (items.length <= EXHAUSTIVE_UP_TO) {
    for (let size = 0; size <= items.length; size += 1) {
      for (const subset of subsetsOfSize(items, size)) {
        const run = await attempt(subset);
        if (run) return { subset, run };
      }
    }
    return null;
  }
  let current = [...items];
  for (let i = current.length - 1; i >= 0; i -= 1) {
    const without = current.filter((_, j) => j !== i);
    if (await attempt(without)) current = without;
  }
  const run = await attempt(current);
  return run ? { subset: current, run } : null;
}

async function shrinkFaults(scenario: Scenario, faults: readonly FaultSpec[], invariant: string, target: Target): Promise<Omit<Shrunk, 'schedule'>> {
  let tries = 0;
  const attempt = async (subset: FaultSpec[]) => {
    tries += 1;
    const run = await runWith(withFaults(scenario, subset), [], target);
    return breaks(run, invariant) ? run : null;
  };
  const found = await smallest(faults, attempt);
  const best = found === null ? null : { faults: found.subset, run: found.run };
  if (best === null) throw new Error(`shrink: the schedule no longer breaks ${invariant} (is the runner deterministic?)`);
  const pinned = pin(best.faults, best.run);
  const check = await attempt(pinned);
  return check ? { faults: pinned, run: check, tries } : { ...best, tries };
}

function* subsetsOfSize<T>(items: readonly T[], size: number, from = 0): Generator<T[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = from; i <= items.length - size; i += 1) {
    for (const rest of subsetsOfSize(items, size - 1, i + 1)) yield [items[i]!, ...rest];
  }
}

/** A worker's fault strikes before its request leaves: it keeps its worker and point, and names that request's tool and attempt. */
function pinWorkerFault(fault: FaultSpec, run: RunResult): FaultSpec {
  const { call } = fault.at;
  if (fault.at.point !== 'request' || call === undefined) return fault;
  const request = run.trace.find((event) => event.type === 'request' && event.by === 'runner' && event.delivery === undefined && event.call === call);
  if (request?.type !== 'request') return fault;
  return { ...fault, at: { ...fault.at, tool: request.action.name, ...(request.attempt !== undefined ? { attempt: request.attempt } : {}), call } };
}

/**
 * Name each fault's point fully (those named by a bare call or event number), from where it fired in `run`: an attempt fault gets its tool, attempt and
 * call; a crash after an event gets the event's label, the pending tool and its number. A fault matches
 * where every field given matches, and it matched there first, so the pinned fault fires at the same point.
 */
export function pin(faults: readonly FaultSpec[], run: RunResult): FaultSpec[] {
  return faults.map((fault, index) => {
    if (fault.at.tool !== undefined || fault.at.label !== undefined) return fault; // already named (a scenario's own)
    if (isWorkerFault(fault.kind)) return pinWorkerFault(fault, run);
    const at = run.trace.findIndex((event) => event.type === 'fault' && event.index === index);
    if (at === -1) return fault;
    for (let i = at - 1; i >= 0; i -= 1) {
      const event = run.trace[i]!;
      if (fault.kind !== 'crash_after_event' && event.type === 'request' && event.by === 'runner' && event.delivery === undefined) {
        return { ...fault, at: { tool: event.action.name, ...(event.attempt !== undefined ? { attempt: event.attempt } : {}), ...(event.call !== undefined ? { call: event.call } : {}) } };
      }
      if (fault.kind === 'crash_after_event' && event.type === 'saved') {
        const tool = event.state.pending?.name;
        return { ...fault, at: { label: event.label, ...(tool !== undefined ? { tool } : {}), seq: event.seq } };
      }
    }
    return fault;
  });
}
