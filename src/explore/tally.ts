/**
 * What exploring one scenario found, counted as the schedules run: how many, with which outcomes, which
 * added faults really fired (coverage), and, per broken invariant, the first schedule that broke it. Tallies
 * of parts of the work (a worker's share) merge in a fixed order, so the report is the same however the
 * work was split.
 */
import type { CheckMessage } from '../check/types.js';
import type { FaultKind, FaultSpec } from '../faults/types.js';
import type { Verdict } from './runSchedule.js';
import { EXPLORED_KINDS } from './schedule.js';

export interface FirstViolation {
  /** The faults added to the scenario's own. */
  added: FaultSpec[];
  message: CheckMessage;
  /** How many schedules of this scenario broke the invariant. */
  schedules: number;
}

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
}

export interface AsWritten {
  passed: boolean;
  /** Every check that failed, rules and figures alike, in the order of the run's checks. */
  failed: string[];
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

  add(added: readonly FaultSpec[], verdict: Verdict): void {
    this.runs[added.length] = (this.runs[added.length] ?? 0) + 1;
    this.outcomes.set(verdict.outcome, (this.outcomes.get(verdict.outcome) ?? 0) + 1);
    added.forEach((fault, i) => {
      this.planned[fault.kind] += 1;
      if (verdict.tookEffect[i]) this.fired[fault.kind] += 1;
      else if (!verdict.reached[i]) this.unreached[fault.kind] += 1;
    });
    if (!verdict.ownFaultsFired) this.ownPreempted += 1;
    if (verdict.broken.length > 0) this.broke[added.length] = (this.broke[added.length] ?? 0) + 1;
    if (added.length === 0) this.asWritten = { passed: verdict.failed.length === 0, failed: [...verdict.failed] };
    for (const { invariant, message } of verdict.broken) {
      const first = this.violations.get(invariant);
      if (first) first.schedules += 1;
      else this.violations.set(invariant, { added: [...added], message, schedules: 1 });
    }
  }

  /** Fold in a tally of later work (order matters: the first violation found stays first). */
  merge(other: Tally | TallyData): void {
    const data = other instanceof Tally ? other.toData() : other;
    data.runs.forEach((n, depth) => (this.runs[depth] = (this.runs[depth] ?? 0) + n));
    for (const [outcome, n] of data.outcomes) this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + n);
    for (const kind of EXPLORED_KINDS) {
      this.planned[kind] += data.planned[kind];
      this.fired[kind] += data.fired[kind];
      this.unreached[kind] += data.unreached[kind];
    }
    this.ownPreempted += data.ownPreempted;
    data.broke.forEach((n, depth) => (this.broke[depth] = (this.broke[depth] ?? 0) + n));
    if (data.asWritten !== null) this.asWritten = { passed: data.asWritten.passed, failed: [...data.asWritten.failed] };
    for (const [invariant, found] of data.violations) {
      const first = this.violations.get(invariant);
      if (first) first.schedules += found.schedules;
      else this.violations.set(invariant, { ...found });
    }
  }

  get total(): number {
    return this.runs.reduce((a, b) => a + b, 0);
  }

  toData(): TallyData {
    return {
      runs: [...this.runs],
      outcomes: [...this.outcomes],
      planned: { ...this.planned },
      fired: { ...this.fired },
      unreached: { ...this.unreached },
      ownPreempted: this.ownPreempted,
      violations: [...this.violations].map(([inv, v]) => [inv, { ...v, added: [...v.added] }]),
      broke: [...this.broke],
      asWritten: this.asWritten === null ? null : { passed: this.asWritten.passed, failed: [...this.asWritten.failed] },
    };
  }

  static from(data: TallyData): Tally {
    const tally = new Tally();
    tally.merge(data);
    return tally;
  }
}
