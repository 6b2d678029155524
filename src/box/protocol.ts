/**
 * What the harness and a box say to each other (frames.ts carries it). The box holds only the learner's runner
 * class: it builds instances and runs `step` when asked. Everything the runner does to the world — ask the
 * policy, save an event, send a request — comes back to the harness as a `call` and is done there, on the real
 * objects; errors come back the same way. So every figure the checks read is produced outside the box, and the
 * box can only ever answer for its own runner.
 */
import type { Message, Said } from '../core/message.js';
import type { RunnerState } from '../runner/state.js';

/**
 * Something the learner's code threw (or that broke while running it): its own text, or a message of faultlab's
 * when faultlab made the error (a value that is no Error, process.exit, the determinism guard, a lost box).
 */
export interface ThrownInfo {
  name: string;
  message: Said;
  stack?: string;
}

/** The name of the load error of a file whose code is one of faultlab's own runners (src/box/compile.ts). */
export const SHIPPED_RUNNER = 'ShippedRunner';

/** An error raised by the real objects, sent to the learner's process to be thrown there as its own kind. */
export interface WireError {
  /** The grader's number for it: if the learner's step lets it through, the grader rethrows the very original. */
  ref: number;
  kind: 'crash' | 'transient' | 'contract' | 'other';
  name: string;
  message: string;
  /** The error's message when faultlab made it (the crash's, above all), to be thrown with it. */
  said?: Message;
  /** contract: the code and the detail the message was made of; other: the error's own code, if it has one (SQLite's, say). */
  code?: string;
  detail?: string;
  /** transient: did the tool surely not run? */
  definite?: boolean;
  /** crash: where it struck. */
  point?: string;
}

export type ToLearner =
  /** A new run begins: earlier instances are gone, printed output is counted afresh. */
  | { t: 'run' }
  /** `leaseMs`: a worker's (the second exercise) — what its deps carry beside its calls. */
  | { t: 'build'; instance: number; leaseMs?: number }
  /** `state` left out: the very object the last step returned (a runner may keep a reference to it). */
  | { t: 'step'; instance: number; state?: RunnerState }
  /** A worker's method (the second exercise): claim, finish or sweep. */
  | { t: 'invoke'; instance: number; method: WorkerMethod; args: unknown[] }
  | Reply
  /**
   * Answer a run's steps as a transcript of the reference's says the harness spoke them (transcript.ts): each step
   * on the runner built last (a new one where `b`), handed `s` (absent: what the last step returned), its calls
   * answered from `r` in order. The box answers with `checked`.
   */
  | { t: 'check'; steps: ScriptStep[] };

export type Reply = { t: 'reply'; ok: true; value?: unknown } | { t: 'reply'; ok: false; error: WireError };

/** One step of a check: a new runner first (`b`), the state it is handed (`s`), and the replies to its calls (`r`). */
export interface ScriptStep {
  b?: true;
  s?: RunnerState;
  r: Reply[];
}

/** The deps a runner is built with, and what each may be asked across the channel. */
export const CALLABLE = {
  policy: ['nextAction'],
  events: ['save', 'last', 'lastEvent', 'all'],
  tools: ['execute'],
  // a worker's (the second exercise): its statements, and the virtual clock
  db: ['get', 'all', 'run', 'exec'],
  clock: ['nowMs'],
} as const satisfies Record<string, readonly string[]>;

export type CallTarget = keyof typeof CALLABLE;

/** What a box's class is: a runner (`step`), or a worker's queue (claim, finish, sweep; src/runner/BaseWorker.ts). */
export type BoxKind = 'runner' | 'worker';

export type WorkerMethod = 'claim' | 'finish' | 'sweep';

/**
 * Every message from the learner's process may carry what its code printed since the last one (`out`), and
 * `cut` once it printed more than a run may keep (the rest was dropped).
 */
export type FromLearner = { out?: string; cut?: true } & (
  /** `fence`: a worker's static fence (the SQL condition every holder's write commits under). */
  | { t: 'ready'; runner: string; kind?: BoxKind; fence?: unknown }
  | { t: 'load_error'; error: ThrownInfo }
  | { t: 'call'; instance: number; target: CallTarget; method: string; args: unknown[] }
  | { t: 'built' }
  | { t: 'returned'; state?: unknown; value?: unknown }
  /** `ref`: the error was one the grader sent (a crash let through, say), not the learner's own. */
  | { t: 'threw'; error: ThrownInfo; ref?: number }
  /** A check's answer: the digest of everything the runner said in it (transcript.ts, answerText). */
  | { t: 'checked'; digest: string }
);
