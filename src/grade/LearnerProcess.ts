/**
 * The grader's side of one learner's process (learnerHost.ts): it starts the process, and then carries a run's
 * calls across — `build` and `step` go out, and while the learner's code runs, each call it makes to its deps
 * is answered here by the real policy, event store and wire of the run under way. Everything blocks: this runs
 * in a grading thread, inside `simulate`, which is synchronous. The watchdog (control.ts) is what ends a wait
 * on a process that hangs.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Crash } from '../core/crash.js';
import { isContractError, isTransientError } from '../inventory/errors.js';
import type { RunnerDeps } from '../runner/BaseRunner.js';
import type { RunnerState } from '../runner/state.js';
import { fifoPaths, type RunControl } from './control.js';
import { ChannelClosed, FrameChannel } from './frames.js';
import { CALLABLE, type FromLearner, type ThrownInfo, type ToLearner, type WireError } from './protocol.js';
import { MAX_OUTPUT_CHARS } from './captureOutput.js';
import { currentLang, t, type Lang } from '../core/i18n/index.js';

/** Heap limit of a learner's process, so a runaway allocation ends that process, not the machine (MB). */
const LEARNER_HEAP_MB = 512;

/** The learner's process is gone: it exited, was killed, or broke the protocol. */
export class LearnerGone extends Error {
  override readonly name = 'LearnerGone';
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How to start learnerHost: compiled next to this file, or from source through tsx. */
function hostCommand(): string[] {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return [fileURLToPath(new URL('./learnerHost.js', self))];
  return ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('./learnerHost.ts', self))];
}

export type Started = { kind: 'ready'; process: LearnerProcess; runnerName: string } | { kind: 'load_error'; error: ThrownInfo } | { kind: 'gone'; exit: ExitInfo; killed: boolean };

function thrownInfo(error: unknown): ThrownInfo {
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { name: 'Error', message: String(error) };
}

export class LearnerProcess {
  readonly #child: ChildProcess;
  readonly #exited: Promise<ExitInfo>;
  readonly #channel: FrameChannel;
  readonly #control: RunControl;
  readonly #instances = new Map<number, RunnerDeps>();
  /** Errors sent into the learner's code during this run, by number: one that comes back out is rethrown as itself. */
  readonly #sent = new Map<number, unknown>();
  #nextInstance = 1;
  #nextRef = 1;
  #lastReturned: unknown = undefined;
  #output = '';
  #gone = false;
  /** Why the grader stopped listening, when the process broke the protocol (wrote a message of its own). */
  #protocolBroken: string | null = null;

  private constructor(child: ChildProcess, exited: Promise<ExitInfo>, channel: FrameChannel, control: RunControl) {
    this.#child = child;
    this.#exited = exited;
    this.#channel = channel;
    this.#control = control;
  }

  /**
   * Start a learner's process on `file` and wait (blocking) until its file is loaded. `generation` numbers the
   * processes of one grading thread: each has its own FIFOs in `dir`.
   */
  static async start(file: string, dir: string, generation: number, control: RunControl, lang: Lang = currentLang()): Promise<Started> {
    const fifos = fifoPaths(dir, generation);
    execFileSync('mkfifo', ['-m', '600', fifos.toLearner, fifos.fromLearner]);
    const env = { ...process.env };
    delete env.NODE_OPTIONS; // a test runner's loader flags are not the learner's
    const child = spawn(process.execPath, [`--max-old-space-size=${LEARNER_HEAP_MB}`, ...hostCommand(), fifos.toLearner, fifos.fromLearner, file, lang], {
      stdio: 'ignore', // what the learner prints is captured inside the process and sent with each message
      env,
    });
    const exited = new Promise<ExitInfo>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', () => resolve({ code: null, signal: null }));
    });
    control.loading(child.pid ?? 0, generation);
    let channel: FrameChannel;
    let first: FromLearner;
    try {
      const fromLearner = openSync(fifos.fromLearner, 'r');
      const toLearner = openSync(fifos.toLearner, 'w');
      channel = new FrameChannel(fromLearner, toLearner);
      first = channel.receive() as FromLearner;
    } catch (error) {
      if (!(error instanceof ChannelClosed) && (error as { code?: string }).code !== 'EPIPE') throw error;
      const killed = !control.settle();
      child.kill('SIGKILL');
      return { kind: 'gone', exit: await exited, killed };
    }
    const killed = !control.settle();
    const started = new LearnerProcess(child, exited, channel, control);
    if (killed) {
      await started.dispose();
      return { kind: 'gone', exit: await exited, killed: true };
    }
    if (first.t === 'ready' && typeof first.runner === 'string') return { kind: 'ready', process: started, runnerName: first.runner };
    await started.dispose();
    if (first.t === 'load_error') return { kind: 'load_error', error: first.error };
    return { kind: 'load_error', error: { name: 'ProtocolError', message: t('grade.process.notReady', { said: JSON.stringify(first).slice(0, 100) }) } };
  }

  /** True once the process is known to be gone (it exited, was killed, or broke the protocol). */
  get gone(): boolean {
    return this.#gone;
  }

  /** When the learner's process said something the grader does not answer: what it was. */
  get protocolBroken(): string | null {
    return this.#protocolBroken;
  }

  get exited(): Promise<ExitInfo> {
    return this.#exited;
  }

  /** What the learner's code printed since the last call, at most MAX_OUTPUT_CHARS per run. */
  takeOutput(): string {
    const out = this.#output;
    this.#output = '';
    return out;
  }

  /** A new run: the learner's process forgets its runners, and errors are numbered afresh. */
  beginRun(): void {
    this.#instances.clear();
    this.#sent.clear();
    this.#lastReturned = undefined;
    this.#output = '';
    this.#send({ t: 'run' });
  }

  /** Build a runner in the learner's process with these deps; returns its number. Throws what its constructor threw. */
  build(deps: RunnerDeps): number {
    const instance = this.#nextInstance++;
    this.#instances.set(instance, deps);
    this.#send({ t: 'build', instance });
    this.#serve();
    return instance;
  }

  step(instance: number, state: RunnerState, step: number): RunnerState {
    this.#control.step(step);
    const same = state === this.#lastReturned && state !== undefined;
    this.#send(same ? { t: 'step', instance } : { t: 'step', instance, state });
    const returned = this.#serve() as RunnerState;
    this.#lastReturned = returned;
    return returned;
  }

  async dispose(): Promise<void> {
    this.#gone = true;
    this.#channel.close();
    this.#child.kill('SIGKILL');
    await this.#exited;
  }

  #send(message: ToLearner): void {
    if (this.#gone) throw new LearnerGone("the learner's process is gone");
    try {
      this.#channel.send(message);
    } catch (error) {
      throw this.#lost(error);
    }
  }

  #receive(): FromLearner {
    if (this.#gone) throw new LearnerGone("the learner's process is gone");
    let message: FromLearner;
    try {
      message = this.#channel.receive() as FromLearner;
    } catch (error) {
      throw this.#lost(error);
    }
    if (typeof message !== 'object' || message === null) throw this.#lost(new ChannelClosed(t('grade.process.notAnObject')));
    if (typeof message.out === 'string' && this.#output.length < MAX_OUTPUT_CHARS) {
      const room = MAX_OUTPUT_CHARS - this.#output.length;
      this.#output += message.out.length > room ? `${message.out.slice(0, room)}\n${t('grade.process.outputCut')}\n` : message.out;
    }
    return message;
  }

  #lost(error: unknown): LearnerGone {
    const closed = error instanceof ChannelClosed && /end of file|EPIPE|EBADF/.test(error.message);
    if (!closed && !this.#gone) this.#protocolBroken = error instanceof Error ? error.message : String(error);
    this.#gone = true;
    this.#channel.close();
    return new LearnerGone(`the learner's process is gone (${error instanceof Error ? error.message : String(error)})`);
  }

  /**
   * Answer the learner's calls until its build or step ends: returns what the step returned, or throws what
   * it threw — the very error object, when it was one of ours (the crash above all: the harness must see
   * its own crash come back to recover from it).
   */
  #serve(): unknown {
    for (;;) {
      const message = this.#receive();
      switch (message.t) {
        case 'call':
          this.#answer(message);
          break;
        case 'built':
          return undefined;
        case 'returned':
          return message.state;
        case 'threw': {
          if (message.ref !== undefined && this.#sent.has(message.ref)) throw this.#sent.get(message.ref);
          const info = message.error ?? { name: 'Error', message: t('grade.process.unreadable') };
          const error = new Error(String(info.message));
          error.name = String(info.name);
          if (typeof info.stack === 'string') error.stack = info.stack;
          throw error;
        }
        default:
          throw this.#lost(new ChannelClosed(t('grade.process.unexpected', { message: JSON.stringify(message).slice(0, 80) })));
      }
    }
  }

  /** One call of the learner's runner to its deps, carried out on the real object and answered. */
  #answer(message: Extract<FromLearner, { t: 'call' }>): void {
    const deps = this.#instances.get(message.instance);
    const methods = CALLABLE[message.target] as readonly string[] | undefined;
    if (deps === undefined || methods === undefined || !methods.includes(message.method) || !Array.isArray(message.args)) {
      throw this.#lost(new ChannelClosed(t('grade.process.unanswered', { call: `${String(message.target)}.${String(message.method)}` })));
    }
    let value: unknown;
    try {
      const target = deps[message.target] as unknown as Record<string, (...args: unknown[]) => unknown>;
      value = target[message.method]!.apply(target, message.args);
      if (message.target === 'events' && message.method === 'save') value = undefined; // the caller keeps its own object
    } catch (error) {
      const ref = this.#nextRef++;
      this.#sent.set(ref, error);
      this.#send({ t: 'reply', ok: false, error: wireError(ref, error) });
      return;
    }
    this.#send(value === undefined ? { t: 'reply', ok: true } : { t: 'reply', ok: true, value });
  }
}

function wireError(ref: number, error: unknown): WireError {
  const { name, message } = thrownInfo(error);
  if (error instanceof Crash) return { ref, kind: 'crash', name, message, point: error.point };
  if (isTransientError(error)) return { ref, kind: 'transient', name, message, definite: error.definite };
  if (isContractError(error)) return { ref, kind: 'contract', name, message, code: error.code, detail: error.detail };
  return { ref, kind: 'other', name, message };
}

