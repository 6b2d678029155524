/**
 * Run one schedule — a scenario with its own faults plus the added ones — and judge it by the rules only
 * (check/verdict.ts): a new fault may well change the status or the figures the scenario expects, but no
 * fault may break a rule. The verdict is plain data, so it can come back from a worker thread.
 */
import type { CheckMessage } from '../check/types.js';
import type { FaultKind, FaultSpec } from '../faults/types.js';
import type { Scenario } from '../scenario/types.js';
import type { RunResult } from '../check/RunResult.js';
import { simulate, type SimulateOptions } from '../sim/simulate.js';
import type { Run } from '../sim/Run.js';
import { outcomeOf } from './outcome.js';
import { onTheCallCount } from './timeline.js';
import type { Target } from './target.js';
import { brokenRules, judge } from '../check/verdict.js';

export interface Broken {
  invariant: string;
  message: CheckMessage;
}

export interface Verdict {
  outcome: string;
  /** The rules the run broke (a caught crash, the invariants), in that order, each with its first message. */
  broken: Broken[];
  /** Per added fault (same order): did it take effect? (A fault pre-empted at its attempt by an earlier one did not.) */
  tookEffect: boolean[];
  /** Per added fault: did the run reach its point at all? (Reached but not in effect: pre-empted.) */
  reached: boolean[];
  /** Did every one of the scenario's own faults take effect? */
  ownFaultsFired: boolean;
  /** Every check that failed: the rules above, and for a run judged as written its figures and faults' firing too. */
  failed: string[];
}

export async function runWith(scenario: Scenario, added: readonly FaultSpec[], target: Target): Promise<RunResult> {
  return judge(await simulateWith(scenario, added, target));
}

/** A schedule's run judged by what the explorer counts: the rules. */
export async function runForVerdict(scenario: Scenario, added: readonly FaultSpec[], target: Target, fork: Pick<SimulateOptions, 'resume' | 'onCheckpoint' | 'kept'> = {}): Promise<RunResult> {
  return judge(await simulateWith(scenario, added, target, fork), 'rules');
}

/** One run of the scenario with `added` on top of its own faults (a runner in a box begins and ends the run there). */
export async function simulateWith(scenario: Scenario, added: readonly FaultSpec[], target: Target, fork: Pick<SimulateOptions, 'resume' | 'onCheckpoint' | 'kept'> = {}): Promise<Run> {
  await target.hooks?.beginRun(target.memo ?? null);
  try {
    return await simulate(scenario, {
      runner: target.runner,
      seed: target.seed,
      storage: target.storage,
      extraFaults: added,
      ...(target.tool ? { tool: target.tool } : {}),
      ...(target.postgres !== undefined ? { postgres: target.postgres } : {}),
      ...(target.queue ? { queue: target.queue } : {}),
      ...(target.worker ? { worker: target.worker } : {}),
      ...fork,
    });
  } finally {
    if (target.hooks) target.ended = await target.hooks.endRun();
  }
}

export function verdictOf(run: RunResult, addedCount: number): Verdict {
  const own = run.faults.length - addedCount;
  const effective = new Set<number>();
  const calls = new Set<number>();
  const seqs = new Set<number>();
  for (const event of run.trace) {
    if (event.type === 'fault') effective.add(event.index);
    else if (event.type === 'request' && onTheCallCount(event) && event.call !== undefined) calls.add(event.call);
    else if (event.type === 'saved') seqs.add(event.seq);
  }
  const added = run.faults.slice(own);
  return {
    outcome: outcomeOf(run),
    broken: brokenRules(run).map((check) => ({ invariant: check.id, message: check.message })),
    tookEffect: added.map((fault) => effective.has(fault.index)),
    reached: added.map(({ spec }) => (spec.kind === 'crash_after_event' ? spec.at.seq === undefined || seqs.has(spec.at.seq) : spec.at.call === undefined || calls.has(spec.at.call))),
    ownFaultsFired: run.faults.slice(0, own).every((fault) => effective.has(fault.index)),
    failed: run.checks.filter((check) => !check.passed).map((check) => check.id),
  };
}

export function kindsOf(added: readonly FaultSpec[]): FaultKind[] {
  return added.map((fault) => fault.kind);
}
