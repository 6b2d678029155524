/**
 * What exploring one scenario found, counted as the schedules run: how many, with which outcomes, which
 * added faults really fired (coverage), and, per broken invariant, the first schedule that broke it. Tallies
 * of parts of the work (a worker's share) merge in a fixed order, so the report is the same however the
 * work was split.
 */
import type { CheckMessage } from '../check/types.js';
import type { FaultKind, FaultSpec } from '../faults/types.js';
import type { ScheduleChoice } from '../scenario/types.js';
import type { Verdict } from './runSchedule.js';
import { EXPLORED_KINDS } from './schedule.js';

export interface FirstViolation {
  /** The faults added to the scenario's own. */
  added: FaultSpec[];
  message: CheckMessage;
  /** How many schedules of this scenario broke the invariant. */
  schedules: number;
  /** Many workers: the scheduler's choices of the run that broke it (`workers.schedule`), when it was an explored interleaving. */
  schedule?: ScheduleChoice[];
}

/** By kind: the chapter's kinds always; a many-worker kind (EXPLORED_WORKER_KINDS) once one was added. */
export type KindCounts = Record<FaultKind, number>;

export function zeroCounts(): KindCounts {
  const counts = {} as KindCounts;
  for (const kind of EXPLORED_KINDS) counts[kind] = 0;
  return counts;
}

export interface TallyData {
  /** Schedules run, by number of added faults (index 0: the scenario as written). */
  runs: number[];
  outcomes: Array<[string, number]>;
  /** Added faults planned and actually fired, by kind. */
  planned: KindCounts;
  fired: KindCounts;
  /** Added faults whose point the run never reached (past its last call): they cannot fire. */
  unreached: KindCounts;
  /** Runs in which one of the scenario's own faults was pre-empted by an added one (reported, not a violation). */
  ownPreempted: number;
  violations: Array<[string, FirstViolation]>;
  /** Schedules that broke at least one rule, by number of added faults (as `runs`). */
  broke: number[];
  /** The scenario as written, judged as `faultlab run` judges it: did it pass, and which checks failed. */
  asWritten: AsWritten | null;
  /** Many workers (interleavings.ts): the explored interleavings, counted apart from the runs above. */
  interleavings: InterleavingCounts;
}

/** The interleavings explored: runs by number of pre-emptions, those that broke a rule, those that repeated a run already seen, and the pre-emptions not tried after them. */
export interface InterleavingCounts {
  /** Index n: runs with n pre-emptions (index 0 unused). */
  runs: number[];
  broke: number;
  repeated: number;
  pruned: number;
}

function noInterleavings(): InterleavingCounts {
  return { runs: [0], broke: 0, repeated: 0, pruned: 0 };
}

export interface AsWritten {
  passed: boolean;
  /** Every check that failed, rules and figures alike, in the order of the run's checks. */
  failed: string[];
}

/** Add `n` to a kind's count, the count starting at 0 (a many-worker kind is absent until first added). */
function bump(counts: KindCounts, kind: FaultKind, n: number): void {
  counts[kind] = (counts[kind] ?? 0) + n;
}

export class Tally {
  readonly runs: number[] = [0, 0, 0];
  readonly outcomes = new Map<string, number>();
  readonly planned = zeroCounts();
  readonly fired = zeroCounts();
  readonly unreached = zeroCounts();
  ownPreempted = 0;
  readonly violations = new Map<string, FirstViolation>();
  readonly broke: number[] = [0, 0, 0];
  asWritten: AsWritten | null = null;
  readonly interleavings: InterleavingCounts = noInterleavings();

  add(added: readonly FaultSpec[], verdict: Verdict): void {
    this.runs[added.length] = (this.runs[added.length] ?? 0) + 1;
    if (verdict.broken.length > 0) this.broke[added.length] = (this.broke[added.length] ?? 0) + 1;
    if (added.length === 0) this.asWritten = { passed: verdict.failed.length === 0, failed: [...verdict.failed] };
    this.#count(added, verdict, undefined);
  }

  /** An explored interleaving of many workers: `preemptions` choices changed, `schedule` the whole schedule it ran; `repeated` if its run was one already seen. */
  addInterleaving(added: readonly FaultSpec[], verdict: Verdict, preemptions: number, schedule: readonly ScheduleChoice[], repeated: boolean): void {
    const counts = this.interleavings;
    counts.runs[preemptions] = (counts.runs[preemptions] ?? 0) + 1;
    if (verdict.broken.length > 0) counts.broke += 1;
    if (repeated) counts.repeated += 1;
    this.#count(added, verdict, schedule);
  }

  #count(added: readonly FaultSpec[], verdict: Verdict, schedule: readonly ScheduleChoice[] | undefined): void {
    this.outcomes.set(verdict.outcome, (this.outcomes.get(verdict.outcome) ?? 0) + 1);
    // Coverage counts each fault schedule once, on its default interleaving: not again for every interleaving of it.
    if (schedule === undefined) this.#cover(added, verdict);
    for (const { invariant, message } of verdict.broken) {
      const first = this.violations.get(invariant);
      if (first) first.schedules += 1;
      else this.violations.set(invariant, { added: [...added], message, schedules: 1, ...(schedule !== undefined ? { schedule: [...schedule] } : {}) });
    }
  }

  #cover(added: readonly FaultSpec[], verdict: Verdict): void {
    added.forEach((fault, i) => {
      bump(this.planned, fault.kind, 1);
      bump(this.fired, fault.kind, 0);
      bump(this.unreached, fault.kind, 0);
      if (verdict.tookEffect[i]) bump(this.fired, fault.kind, 1);
      else if (!verdict.reached[i]) bump(this.unreached, fault.kind, 1);
    });
    if (!verdict.ownFaultsFired) this.ownPreempted += 1;
  }

  /** Fold in a tally of later work (order matters: the first violation found stays first). */
  merge(other: Tally | TallyData): void {
    const data = other instanceof Tally ? other.toData() : other;
    data.runs.forEach((n, depth) => (this.runs[depth] = (this.runs[depth] ?? 0) + n));
    for (const [outcome, n] of data.outcomes) this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + n);
    for (const kind of Object.keys(data.planned) as FaultKind[]) {
      bump(this.planned, kind, data.planned[kind]);
      bump(this.fired, kind, data.fired[kind] ?? 0);
      bump(this.unreached, kind, data.unreached[kind] ?? 0);
    }
    this.ownPreempted += data.ownPreempted;
    data.broke.forEach((n, depth) => (this.broke[depth] = (this.broke[depth] ?? 0) + n));
    if (data.asWritten !== null) this.asWritten = { passed: data.asWritten.passed, failed: [...data.asWritten.failed] };
    const counts = this.interleavings;
    data.interleavings.runs.forEach((n, preemptions) => (counts.runs[preemptions] = (counts.runs[preemptions] ?? 0) + n));
    counts.broke += data.interleavings.broke;
    counts.repeated += data.interleavings.repeated;
    counts.pruned += data.interleavings.pruned;
    for (const [invariant, found] of data.violations) {
      const first = this.violations.get(invariant);
      if (first) first.schedules += found.schedules;
      else this.violations.set(invariant, { ...found, added: [...found.added], ...(found.schedule ? { schedule: [...found.schedule] } : {}) });
    }
  }

  /** Every run: on the default interleaving (as written, with added faults) and the explored interleavings. */
  get total(): number {
    return this.runs.reduce((a, b) => a + b, 0) + this.interleaved;
  }

  /** The explored interleavings run (many workers). */
  get interleaved(): number {
    return this.interleavings.runs.reduce((a, b) => a + b, 0);
  }

  toData(): TallyData {
    return {
      runs: [...this.runs],
      outcomes: [...this.outcomes],
      planned: { ...this.planned },
      fired: { ...this.fired },
      unreached: { ...this.unreached },
      ownPreempted: this.ownPreempted,
      violations: [...this.violations].map(([inv, v]) => [inv, { ...v, added: [...v.added], ...(v.schedule ? { schedule: [...v.schedule] } : {}) }]),
      broke: [...this.broke],
      asWritten: this.asWritten === null ? null : { passed: this.asWritten.passed, failed: [...this.asWritten.failed] },
      interleavings: { ...this.interleavings, runs: [...this.interleavings.runs] },
    };
  }

  static from(data: TallyData): Tally {
    const tally = new Tally();
    tally.merge(data);
    return tally;
  }
}
