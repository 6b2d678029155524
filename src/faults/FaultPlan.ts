/**
 * A run's fault plan: the scenario's faults plus any added by the explorer. The plan belongs to the
 * outside world, not to the runner, so it survives a crash: each fault fires at most once per run, and
 * the plan remembers which fired and where — a listed fault that never fired makes a broken scenario.
 */
import type { FaultKind, FaultSpec } from './types.js';
import { AT_ATTEMPT_ORDER } from './types.js';

export interface FiredAt {
  /** Harness step in which it fired. */
  step: number;
  call?: number;
  attempt?: number;
  seq?: number;
}

export interface PlannedFault {
  spec: FaultSpec;
  /** Index in the plan (scenario faults first, then added ones). */
  index: number;
  firedAt: FiredAt | null;
}

export class FaultPlan {
  readonly faults: PlannedFault[];

  constructor(specs: readonly FaultSpec[]) {
    this.faults = specs.map((spec, index) => ({ spec, index, firedAt: null }));
  }

  /** The faults that strike this attempt, marked fired, in the order of SPEC §5. */
  atAttempt(tool: string, call: number, attempt: number, step: number): PlannedFault[] {
    const hits = this.faults.filter((f) => {
      if (f.firedAt !== null || f.spec.kind === 'crash_after_event' || f.spec.kind === 'redeliver_task') return false;
      const at = f.spec.at;
      return (at.tool === undefined || at.tool === tool) && (at.attempt === undefined || at.attempt === attempt) && (at.call === undefined || at.call === call);
    });
    for (const f of hits) f.firedAt = { step, call, attempt };
    return hits.sort((a, b) => order(a.spec.kind) - order(b.spec.kind));
  }

  /** The crash_after_event fault that strikes after this persisted event, if any (marked fired). */
  afterEvent(seq: number, label: string, pendingTool: string | null, step: number): PlannedFault | null {
    const hit = this.faults.find((f) => {
      if (f.firedAt !== null || f.spec.kind !== 'crash_after_event') return false;
      const at = f.spec.at;
      return (at.seq === undefined || at.seq === seq) && (at.label === undefined || at.label === label) && (at.tool === undefined || at.tool === pendingTool);
    });
    if (hit === undefined) return null;
    hit.firedAt = { step, seq };
    return hit;
  }

  /** The redelivery of the whole task, once its delivery has ended (marked fired), if one is planned. */
  redelivery(step: number): PlannedFault | null {
    const hit = this.faults.find((f) => f.firedAt === null && f.spec.kind === 'redeliver_task');
    if (hit === undefined) return null;
    hit.firedAt = { step };
    return hit;
  }

  unfired(): PlannedFault[] {
    return this.faults.filter((f) => f.firedAt === null);
  }
}

function order(kind: FaultKind): number {
  return AT_ATTEMPT_ORDER.indexOf(kind);
}
