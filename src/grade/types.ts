/**
 * A grade is data, like a run: the grader computes it once and the reporters (terminal, Exercism JSON,
 * JUnit XML) only present it — its words are messages, worded by the reporters in the language they are given.
 */
import type { Message, Param, Said } from '../core/message.js';
import type { Printed } from '../box/captureOutput.js';
import type { InvariantId } from '../check/invariants.js';
import type { QueueInvariantId } from '../check/queueInvariants.js';
import type { Divergence } from './divergence.js';
import type { MistakeId } from './mistakes.js';
import type { ThrownInfo } from '../box/protocol.js';

/** Exercism's per-test statuses: `error` when the learner's code threw, hung or could not run. */
export type TestStatus = 'pass' | 'fail' | 'error';

/** What went wrong first in one scenario; the id picks the hint ladder and the lesson. */
export type ProblemId =
  | 'load_error'
  | 'timeout'
  | 'worker_crash'
  /** The learner's process ended on its own (it exited, killed itself, ran out of memory). */
  | 'process_died'
  /** A scenario that could not be explored (its run as written did not end, or an earlier exploration hung). */
  | 'not_explored'
  | MistakeId
  | 'not_implemented'
  | 'determinism'
  | 'runner_error'
  | InvariantId
  /** The queue's rules and figures (the second exercise: many workers). */
  | QueueInvariantId
  | 'workers'
  | 'status'
  | 'calls'
  | 'ledger'
  | 'stock'
  | 'pending'
  | 'observations'
  | 'fault_not_reached'
  | 'reference_fails';

export interface Problem {
  id: ProblemId;
  /** A short name: `inv3 every attempt of a pending action used its key and args`, `timeout`… */
  title: Said;
  /** One line in plain words: what was expected, what happened, why that breaks the rule. */
  message: Message;
  /** Where in the learner's file it happened (`src/runner/LearnerRunner.ts:31`), for an exception. */
  where?: string;
  /** For an exception: the exception's own message, which `message` ends with (shown on a line of its own). */
  thrown?: Said;
  /** The check that failed (an invariant, `crash_caught`), when the problem is a broken rule or a mistake that broke one. */
  check?: string;
}

/** A scenario is graded twice: as written, and explored — with one added fault at every point (depth 1). */
export type GradePart = 'as_written' | 'explored';

export interface ScenarioGrade {
  part: GradePart;
  id: string;
  title: string;
  /** Exercism's task_id: the scenario's number (docs/spec.md §6), or its place in the list for unnumbered ones. */
  taskId: number;
  /** The scenario in a line: its faults and what it expects (`lost_reply at reserve attempt 1 → succeeded · calls 5 …`). */
  summary: Message;
  /** A teacher's held-out scenario (not one of the package's): its faults are not shown to the learner unless asked. */
  heldOut?: true;
  /** A many-worker scenario (the second exercise): explored over its interleavings as well. */
  workers?: true;
  status: TestStatus;
  /** The first problem, or null for a pass. */
  problem: Problem | null;
  /** The scenario's figures the run got wrong, each as `calls expected 5, got 6`. */
  wrongFigures: Message[];
  /** What the run ended with: `tool_error · calls 5 · ledger 1 · stock camera 2` (null when there was no run). */
  figures: Param | null;
  divergence: Divergence | null;
  /** The command that replays this scenario with this runner and shows the full trace. */
  replay: string;
  /** The lesson to read for this problem (a path from the working directory). */
  lesson: string;
  /** What the learner's code printed while this scenario ran. */
  output: Printed;
  durationMs: number;
  /** Explored only: schedules run, and how many broke an invariant (or let a crash through). */
  coverage?: { schedules: number; broke: number; sameRunsAs?: 'reference' | 'submission' };
  /** Explored only: the replay file written for the smallest failing schedule. */
  replayFile?: string;
}

export interface SubmissionGrade {
  /** The submission's file as the user named it (relative to the working directory when inside it). */
  file: string;
  /** Its name in a class: the folder of `alice/LearnerRunner.ts`, the stem of `bob.ts`. */
  name: string;
  /** The runner class found in it, or null when the file could not be loaded. */
  runnerName: string | null;
  loadError: ThrownInfo | null;
  /** Each scenario as written. */
  scenarios: ScenarioGrade[];
  /** Each scenario explored (empty when exploring was turned off). */
  explored: ScenarioGrade[];
  /** Tests passed of all tests: every scenario as written plus every scenario explored (score.ts). */
  passed: number;
  total: number;
}
