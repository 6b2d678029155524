/**
 * What the grader's main thread and a grading thread say to each other. The grading thread (worker.ts) drives
 * one submission: it opens the learner's box, runs each scenario as written, then explores each one, and
 * reports as it goes. Everything here is plain data (structured clone), and all of it is computed by the
 * grader's own code: the box never talks to the main thread.
 */
import type { RunResult } from '../check/RunResult.js';
import type { CheckMessage } from '../check/types.js';
import type { FaultSpec } from '../faults/types.js';
import type { Scenario } from '../scenario/types.js';
import type { ExitInfo } from '../box/Box.js';
import type { ThrownInfo } from '../box/protocol.js';
import type { Message } from '../core/message.js';
import type { Printed } from '../box/captureOutput.js';
import type { ScenarioTranscripts } from './transcripts.js';

export interface GradeJob {
  file: string;
  /** The scenarios of a file that holds a runner; and of one that holds a worker (the second exercise), if any. */
  scenarios: Scenario[];
  workerScenarios?: Scenario[];
  seed: number;
  maxSteps: number;
  /** Explore each scenario (depth 1) after running it as written. */
  explore: boolean;
  /** The box's limits: per run, and for loading the file (ms). */
  timeoutMs: number;
  loadTimeoutMs: number;
  /** Grade a file whose code is faultlab's own ReferenceRunner or a mutant like any other, instead of refusing it. */
  acceptShipped: boolean;
  /** `--db postgres…`: every run of the learner's on this server, each in a schema of its own (never forked). */
  postgres?: string;
  /**
   * Hold the runner to the explorations already made before exploring a scenario, and record what it explores for
   * the next submissions (explorations.ts); false: every scenario is explored run by run, nothing recorded.
   */
  reuse: boolean;
}

/** How one run of the learner's runner ended, as the grading thread saw it. */
export type RunOutcome =
  | { kind: 'done'; run: RunResult; output: Printed; durationMs: number }
  /** The box's time limit stopped it: `step` is the step it was in (0: before the first). */
  | { kind: 'timeout'; step: number; output: Printed; durationMs: number }
  /** The box ended on its own (it exited, killed itself, ran out of memory, broke the protocol). */
  | { kind: 'died'; step: number; exit: ExitInfo; output: Printed; durationMs: number; protocol?: Message }
  /** The run could not be carried out (the runner's constructor threw, the file no longer loads). */
  | { kind: 'crashed'; error: ThrownInfo; output: Printed; durationMs: number };

/** One scenario explored: every schedule with one added fault, as `faultlab explore` makes them (depth 1). */
export interface Explored {
  /** Schedules run (each the scenario with one added fault). */
  schedules: number;
  /** Schedules that broke an invariant or let a crash through. */
  broke: number;
  /** Per broken check, how many schedules broke it and its message on the first. */
  violations: Array<{ check: string; schedules: number; message: CheckMessage; added: FaultSpec[] }>;
  /** The first violation (checks in order), shrunk to its smallest schedule; its run is the learner's on that schedule. */
  finding: { check: string; found: FaultSpec[]; minimal: FaultSpec[]; message: CheckMessage; run: RunResult | null; schedules: number } | null;
  /** Why exploring stopped before the end: a run that hung or whose process died (not a verdict on the runner's rules). */
  stopped: { schedule: FaultSpec[]; outcome: Exclude<RunOutcome, { kind: 'done' }> } | null;
  /** Added faults that really fired, and those added. */
  fired: number;
  planned: number;
  durationMs: number;
  /**
   * Not run again: the runner answered every run of an exploration already made — the reference's, or a submission's
   * graded before — as it was answered there (src/grade/explorations.ts), so these figures are that exploration's.
   */
  heldTo?: 'reference' | 'submission';
}

/**
 * What the main thread tells a grading thread once it has said what the file holds: which scenarios to skip (the
 * reference fails them: broken scenarios), whether to grade them as written, and which ones to explore (by index)
 * — a submission graded alone is shared by two threads, each with its box, one core each.
 */
export interface Go {
  type: 'go';
  skip: boolean[];
  fixed: boolean;
  explore: number[];
}

/** A thread that records the reference's exploration of some scenarios (transcripts.ts), for every submission. */
export interface TranscriptsJob {
  scenarios: Scenario[];
  /** The scenarios this thread records, by index. */
  indices: number[];
  seed: number;
}

/** What the main thread tells a grading thread: its word to go, and the explorations asked for (`ask`). */
export type ToHarness =
  | Go
  /**
   * The explorations already made of the scenario whose run as written is the one asked about, after the first
   * `after` of them; `explore`: there are no more to come, so this thread explores it (recording, `recorded`).
   */
  | { type: 'sets'; index: number; sets: ScenarioTranscripts[]; explore: boolean };

export type FromHarness =
  | { type: 'loaded'; runnerName: string; kind: 'runner' | 'worker' }
  /** `kind`: what the file was seen to hold before it was refused (a worker with no fence), when it got that far. */
  | { type: 'load_error'; error: ThrownInfo; kind?: 'runner' | 'worker' }
  | { type: 'fixed'; index: number; outcome: RunOutcome }
  | { type: 'explored'; index: number; explored: Explored | null; reason?: Message }
  /** Which explorations already made might be this runner's: those whose run as written has this digest. */
  | { type: 'ask'; index: number; asWritten: string; after: number }
  /** A scenario explored here, recorded (null: its exploration is not one to keep: a rule broke, a run stopped). */
  | { type: 'recorded'; index: number; asWritten: string; set: ScenarioTranscripts | null }
  /** A transcripts thread's (TranscriptsJob): the reference's exploration of a scenario, recorded. */
  | { type: 'transcripts'; index: number; set: ScenarioTranscripts }
  | { type: 'finished' }
  | { type: 'failed'; error: ThrownInfo };
