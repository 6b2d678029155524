/**
 * What a torture run comes to (docs/spec.md §19): the plan it was dealt, the signals it sent, the figures read from
 * the file and those the workers counted, and every check's verdict. The driver (src/cli/torture) fills it; the
 * renderers (src/render/torture.ts) show it; `--json` prints it as it is.
 */
import type { Message } from '../core/message.js';
import type { FileCheck, FileFigures } from './fileChecks.js';

export interface TortureProgress {
  kills: number;
  pauses: number;
  plannedKills: number;
  plannedPauses: number;
  /** Tasks finished so far, as the workers reported them. */
  finished: number;
  staleRefused: number;
  elapsedMs: number;
}

export interface WorkerError {
  worker: string;
  /** How it ended: its exit code or signal, and what it said (its error, or the end of its stderr). */
  exit: string;
  said: string | Message;
}

export interface TortureReport {
  /** Where the workers met: `sqlite` (one file), `postgres` (the embedded server) or the server's URL, shown without its password. */
  db: string;
  /** With `--terminate-backends` (PostgreSQL): kills made by ending the worker's server backend rather than its process. */
  backendsTerminated: number;
  /** `--join`: the schema of the run whose queue this run's workers shared (that run produced, swept and drained it), or null. */
  joined: string | null;
  /** The run joined ended, and dropped its schema, before this one: its last check was not made. */
  joinedEnded: boolean;
  seed: number;
  /** `reference`, or `mutant:NAME`. */
  runner: string;
  workers: number;
  leaseMs: number;
  /** How long each tool call took on the wire, in real ms. */
  toolMs: number;
  plan: { kills: number; pauses: number; digest: string };
  /** Signals sent: SIGKILLs (each followed by a restart and a check), SIGSTOPs (each with its SIGCONT). */
  kills: number;
  pauses: number;
  /** Checks made on the file: one after every kill, and the last one at the end. */
  checksMade: number;
  /** The kill after whose check a check first broke (the run stops there), or null. */
  brokenAfterKill: number | null;
  /** Tasks the producer queued, and what the file holds at the end (the live file and the archive together). */
  enqueued: number;
  tasks: FileFigures;
  /**
   * Whether every task reached done or failed once the signals stopped, before the drain's time ran out; null when
   * the run stopped at a broken check (not drained: what was in flight then is evidence, not a lost intent).
   */
  drained: boolean | null;
  /** Counted by the workers (a SIGKILL loses what its worker had not yet reported) and the driver. */
  grants: number;
  staleRefused: number;
  busyRetries: number;
  /** Worker processes that ended without being killed: each a defect of faultlab, not of the protocol. */
  workerErrors: WorkerError[];
  /** From the workers' first start to the end of the drain. */
  elapsedMs: number;
  /** Tasks finished (done or failed) per second of elapsedMs. */
  tasksPerSecond: number;
  checks: FileCheck[];
}

/** Whether everything held: every check, and no worker that broke off on its own. */
export function tortureHeld(report: TortureReport): boolean {
  return report.checks.every((check) => check.passed) && report.workerErrors.length === 0;
}
