/**
 * A run's fault plan: the scenario's faults plus any added by the explorer. The plan belongs to the
 * outside world, not to the runner, so it survives a crash: each fault fires at most once per run, and
 * the plan remembers which fired and where — a listed fault that never fired makes a broken scenario.
 */
import type { FaultKind, FaultSpec, WorkerFaultKind, WorkerPointName } from './types.js';
import { AT_ATTEMPT_ORDER, isWorkerFault } from './types.js';

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

  /**
   * The faults that may strike this attempt, in the order of docs/spec.md §5 — not yet marked fired: the wire marks each
   * one that acts (`fire`). Two at one point do not both act when the first ends the attempt (a transient before
   * a lost reply), nor does the same fault twice: the one that did not act stays unfired, and a scenario whose
   * listed fault never fires is a broken one, never a pass. `worker`: whose attempt (many workers).
   */
  atAttempt(tool: string, call: number, attempt: number, worker?: string): PlannedFault[] {
    const hits = this.faults.filter((f) => {
      if (f.firedAt !== null || f.spec.kind === 'crash_after_event' || f.spec.kind === 'redeliver_task' || isWorkerFault(f.spec.kind)) return false;
      const at = f.spec.at;
      return (
        (at.tool === undefined || at.tool === tool) &&
        (at.attempt === undefined || at.attempt === attempt) &&
        (at.call === undefined || at.call === call) &&
        (at.worker === undefined || at.worker === worker)
      );
    });
    return hits.sort((a, b) => order(a.spec.kind) - order(b.spec.kind));
  }

  /** `fault` acted, at this step of the run (its attempt's call and number). */
  fire(fault: PlannedFault, at: FiredAt): void {
    fault.firedAt = at;
  }

  /** The crash_after_event fault that strikes after this persisted event, if any (marked fired). */
  afterEvent(seq: number, label: string, pendingTool: string | null, step: number, worker?: string): PlannedFault | null {
    const hit = this.faults.find((f) => {
      if (f.firedAt !== null || f.spec.kind !== 'crash_after_event') return false;
      const at = f.spec.at;
      return (at.seq === undefined || at.seq === seq) && (at.label === undefined || at.label === label) && (at.tool === undefined || at.tool === pendingTool) && (at.worker === undefined || at.worker === worker);
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

  /**
   * The worker faults that strike `worker` at this point of its loop, marked fired, in plan order. `at`: what
   * the point is about — the worker's grant number, and for a request its tool, attempt and call, for a saved
   * event its label; a field the fault leaves out matches anything.
   */
  atWorker(worker: string, point: WorkerPointName | 'claim', at: { grant: number; tool?: string; attempt?: number; call?: number; label?: string }, step: number): Array<PlannedFault & { spec: { kind: WorkerFaultKind } }> {
    const hits = this.faults.filter((f) => {
      if (f.firedAt !== null || !isWorkerFault(f.spec.kind)) return false;
      const want = f.spec.at;
      if (want.worker !== worker) return false;
      if ((f.spec.kind === 'claim_reply_lost') !== (point === 'claim')) return false;
      if (point !== 'claim' && want.point !== point) return false;
      return (
        (want.grant === undefined || want.grant === at.grant) &&
        (want.tool === undefined || want.tool === at.tool) &&
        (want.attempt === undefined || want.attempt === at.attempt) &&
        (want.call === undefined || want.call === at.call) &&
        (want.label === undefined || want.label === at.label)
      );
    });
    for (const f of hits) f.firedAt = { step, ...(at.call !== undefined ? { call: at.call } : {}), ...(at.attempt !== undefined ? { attempt: at.attempt } : {}) };
    return hits as Array<PlannedFault & { spec: { kind: WorkerFaultKind } }>;
  }

  unfired(): PlannedFault[] {
    return this.faults.filter((f) => f.firedAt === null);
  }
}

function order(kind: FaultKind): number {
  return AT_ATTEMPT_ORDER.indexOf(kind);
}
