/**
 * Shrinking: from a schedule that breaks an invariant to the smallest one that still breaks it. The
 * candidate faults are the scenario's own and the added ones together; every subset is tried from the
 * smallest up (a schedule has a handful of faults, so this is cheap and the result truly minimal: no smaller
 * subset breaks the invariant). Then each remaining fault's point is pinned with what the run shows there —
 * the tool and attempt, the event's label — which names the same point and reads like a lesson.
 */
import type { FaultSpec } from '../faults/types.js';
import type { Scenario } from '../scenario/types.js';
import type { RunResult } from '../check/RunResult.js';
import { runWith } from './runSchedule.js';
import type { Target } from './target.js';

/** Above this many candidate faults, drop one at a time instead of trying every subset. */
const EXHAUSTIVE_UP_TO = 10;

export interface Shrunk {
  /** The smallest fault list (the whole plan of the replay scenario) that still breaks the invariant. */
  faults: FaultSpec[];
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

export async function shrink(scenario: Scenario, faults: readonly FaultSpec[], invariant: string, target: Target): Promise<Shrunk> {
  let tries = 0;
  const attempt = async (subset: FaultSpec[]) => {
    tries += 1;
    const run = await runWith(withFaults(scenario, subset), [], target);
    return breaks(run, invariant) ? run : null;
  };
  let best: { faults: FaultSpec[]; run: RunResult } | null = null;
  if (faults.length <= EXHAUSTIVE_UP_TO) {
    for (let size = 0; size <= faults.length && best === null; size += 1) {
      for (const subset of subsetsOfSize(faults, size)) {
        const run = await attempt(subset);
        if (run) {
          best = { faults: subset, run };
          break;
        }
      }
    }
  } else {
    let current = [...faults];
    for (let i = current.length - 1; i >= 0; i -= 1) {
      const without = current.filter((_, j) => j !== i);
      const run = await attempt(without);
      if (run) current = without;
    }
    best = { faults: current, run: (await attempt(current))! };
  }
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

/**
 * Name each fault's point fully (those named by a bare call or event number), from where it fired in `run`: an attempt fault gets its tool, attempt and
 * call; a crash after an event gets the event's label, the pending tool and its number. A fault matches
 * where every field given matches, and it matched there first, so the pinned fault fires at the same point.
 */
export function pin(faults: readonly FaultSpec[], run: RunResult): FaultSpec[] {
  return faults.map((fault, index) => {
    if (fault.at.tool !== undefined || fault.at.label !== undefined) return fault; // already named (a scenario's own)
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
