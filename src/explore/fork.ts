/**
 * Forking schedules instead of replaying their beginning. A schedule is its parent run plus one fault (depth
 * 1: the scenario as written plus one; depth 2: a depth-1 run plus a second), and it is the parent run, step
 * for step, until that fault's point. So the explorer runs each parent once, pausing it at every step
 * boundary (src/sim/checkpoint.ts), and starts each child from the last pause before its fault's point: the
 * child's run is the one a fresh start would give, without running the shared steps again.
 *
 * Only for a runner that keeps nothing between steps, since a paused run does not carry a runner instance: the
 * reference runner on the real tool; and a learner's runner in its box once it has shown it (a runner may keep
 * things in its instance, which a resumed run would not have): its scenario as written, resumed from every one of
 * its pauses, must give the very same run — else every schedule of that runner runs from the start. A mutant
 * always runs from the start. Only in memory, and not for the pillars' scenarios (their stores are not paused).
 */
import type { FaultSpec } from '../faults/types.js';
import { usesLimits, type Scenario } from '../scenario/types.js';
import type { RunResult } from '../check/RunResult.js';
import type { Checkpoint } from '../sim/checkpoint.js';
import { KeptConnections, mayKeepConnections } from '../sim/keptConnections.js';
import type { Target } from './target.js';
import { runForVerdict } from './runSchedule.js';
import { ReferenceRunner } from '../runner/ReferenceRunner.js';
import { ConversationMemo } from '../box/memo.js';

/** A run with the pauses a child can start from, in the order they were taken. */
export interface Paused {
  run: RunResult;
  checkpoints: Checkpoint[];
}

export function forkable(scenario: Scenario, target: Target): boolean {
  // Nor a scenario past the chapter (docs/spec.md §13–§14): its relay and redelivery run after the task's last pause.
  // Nor on PostgreSQL: a checkpoint is SQLite's committed rows, and every schedule there runs from its start.
  return mayKeepConnections(target.runner, target.tool) && target.storage === 'memory' && target.postgres === undefined && scenario.durability === undefined && !usesLimits(scenario);
}

/** A run's outcome, all of it: what a resumed run must repeat exactly. */
export const wholeRun = (run: RunResult): string => JSON.stringify([run.trace, run.log, run.state, run.db, run.steps, run.crashes, run.runnerError, run.runnerRequests]);

/** Run `added` on top of the scenario's faults (from `from`, if given), keeping every pause. */
export async function runPaused(scenario: Scenario, added: readonly FaultSpec[], target: Target, from: Checkpoint | null, kept?: KeptConnections): Promise<Paused> {
  const checkpoints: Checkpoint[] = [];
  const run = await runForVerdict(scenario, added, target, { ...(from ? { resume: from } : {}), ...(kept ? { kept } : {}), onCheckpoint: (checkpoint) => checkpoints.push(checkpoint) });
  return { run, checkpoints };
}

/** Run `added` (the parent's added faults, then the child's) from `from`, or from the start without one. */
export function runFrom(scenario: Scenario, added: readonly FaultSpec[], target: Target, from: Checkpoint | null, kept?: KeptConnections): Promise<RunResult> {
  return runForVerdict(scenario, added, target, { ...(from ? { resume: from } : {}), ...(kept ? { kept } : {}) });
}

/**
 * `added` from `from` (or from the start), its conversations with the runner's box served from the scenario's memo
 * where `bases` has one; a run in which a step was caught answering otherwise is run again without it.
 */
export async function runRemembered(scenario: Scenario, added: readonly FaultSpec[], target: Target, fork: { from: Checkpoint | null } | null, bases: Bases): Promise<RunResult> {
  const memo = bases.memoFor(scenario);
  const remembered = memo === null ? target : { ...target, memo };
  // Forked (a base run paused): from its pause, on the thread's kept connections; else from the start, on its own.
  const run = fork !== null ? await runFrom(scenario, added, remembered, fork.from, bases.kept) : await runForVerdict(scenario, added, remembered);
  if (memo === null || !memo.diverged) return run;
  bases.forget();
  return runRemembered(scenario, added, target, fork, bases);
}

/** The last pause of `parent` before the first point where `fault` can strike (null: none comes before it). */
export function resumePoint(parent: Paused, fault: FaultSpec): Checkpoint | null {
  const position = firstChance(parent.run, fault);
  let found: Checkpoint | null = null;
  for (const checkpoint of parent.checkpoints) {
    if (checkpoint.traceLength > position) break;
    found = checkpoint;
  }
  return found;
}

/**
 * Where in the run `fault` could first strike: the first request the runner sent with its call number, or
 * the event saved with its number; the end of the run if it never came (the fault then changes nothing).
 * A fault named any other way could strike anywhere: 0, so its schedule runs from the start.
 */
function firstChance(run: RunResult, fault: FaultSpec): number {
  const { call, seq, tool, attempt, label } = fault.at;
  if (tool !== undefined || attempt !== undefined || label !== undefined) return 0;
  if (fault.kind === 'crash_after_event') {
    if (seq === undefined) return 0;
    const at = run.trace.findIndex((event) => event.type === 'saved' && event.seq === seq);
    return at === -1 ? Number.POSITIVE_INFINITY : at;
  }
  if (call === undefined) return 0;
  const at = run.trace.findIndex((event) => event.type === 'request' && event.by === 'runner' && event.delivery === undefined && event.call === call);
  return at === -1 ? Number.POSITIVE_INFINITY : at;
}

/**
 * One thread's share of an exploration: each scenario's run as written, paused (made once), and the
 * connections its forked runs share (src/sim/keptConnections.ts). `close` when the thread is done.
 */
export class Bases {
  readonly #target: Target;
  readonly #paused = new Map<Scenario, Paused | null>();
  /** A runner that is not the reference must show it keeps nothing between steps; once it does not, no fork. */
  #provenStepless: boolean | null = null;
  #memo: { scenario: Scenario; memo: ConversationMemo } | null = null;
  #memos = true;
  /** The connections every forked run of this thread starts on, restored to its starting rows. */
  readonly kept = new KeptConnections();

  constructor(target: Target) {
    this.#target = target;
  }

  /** The scenario as written, paused at every step — or null when its schedules cannot be forked. */
  async of(scenario: Scenario): Promise<Paused | null> {
    let paused = this.#paused.get(scenario);
    if (paused === undefined) {
      paused = forkable(scenario, this.#target) && this.#provenStepless !== false ? await runPaused(scenario, [], this.#target, null, this.kept) : null;
      if (paused !== null && this.#target.runner !== ReferenceRunner) {
        if (await this.#resumesTheSame(scenario, paused)) this.#provenStepless ??= true;
        else {
          this.#provenStepless = false;
          paused = null;
        }
      }
      this.#paused.set(scenario, paused);
    }
    return paused;
  }

  /** The scenario as written, resumed from each of its pauses with a new runner instance: the same run every time? */
  async #resumesTheSame(scenario: Scenario, paused: Paused): Promise<boolean> {
    const expected = wholeRun(paused.run);
    for (const checkpoint of paused.checkpoints) {
      if (wholeRun(await runFrom(scenario, [], this.#target, checkpoint, this.kept)) !== expected) return false;
    }
    return true;
  }

  /** The runner has shown, on a scenario, that it keeps nothing between steps, and has never shown otherwise. */
  get stepless(): boolean {
    return this.#provenStepless === true;
  }

  /**
   * The scenario's conversations with the runner's box, remembered (src/box/memo.ts) — for a runner in a box once
   * it has shown it keeps nothing between steps, until one of its steps is caught answering a remembered
   * conversation otherwise (then none, ever again: `forget`). Null for a runner in this thread.
   */
  memoFor(scenario: Scenario): ConversationMemo | null {
    if (this.#target.hooks === undefined || this.#memos === false || !this.stepless) return null;
    if (this.#memo?.scenario !== scenario) this.#memo = { scenario, memo: new ConversationMemo() };
    return this.#memo.memo;
  }

  /** A step answered a remembered conversation otherwise: no memo from here on. */
  forget(): void {
    this.#memos = false;
    this.#memo = null;
  }

  close(): void {
    this.kept.close();
  }
}
