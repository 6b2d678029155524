/**
 * A box: the process a learner's runner runs in (host.ts), seen from the harness. Every command that runs a
 * learner's code — run, explore, grade, its pages, dlq --replay, the classroom API — runs it here, and only
 * here: the harness keeps the databases, the wire, the trace and the verdict; the box answers for `step`.
 *
 * The harness never blocks on a box. It sends a request and awaits the answer while the box's own calls (an
 * event to save, a request to send) come back to be carried out on the real objects and answered. So the
 * harness can keep time: a load or a run past its limit is ended by SIGKILL — a busy loop, a blocked system
 * call, `execSync('sleep 50')` — and whatever was awaited is rejected with BoxGone. The box keeps nothing the
 * harness needs; a box that is gone is replaced by a new one for the next run. This file reads real time only
 * for those limits (the simulator never does).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { Crash } from '../core/crash.js';
import { isDiskFull } from '../core/environment.js';
import { makeTempDir, removeTempDir } from '../core/tempDir.js';
import { compileModule, CompileError, hostModule, type Shipped } from './compile.js';
import { isolation, type Isolation } from './isolation.js';
import { isContractError, isTransientError } from '../inventory/errors.js';
import type { RunnerDeps } from '../runner/BaseRunner.js';
import type { RunnerState } from '../runner/state.js';
import { MAX_OUTPUT_CHARS, type Printed } from './captureOutput.js';
import { encodeFrame, encodeText, FrameReader, MAX_BOX_FRAME_BYTES } from './frames.js';
import { callProblem, LearnerValueError, stateProblem } from './learnerValues.js';
import { CALLABLE, type CallTarget, type FromLearner, type ThrownInfo, type ToLearner, type WorkerMethod } from './protocol.js';
import { wireError } from './wire.js';
import { codeText, isMessage, message, saidOf, type Message, type Param } from '../core/message.js';
import type { BoxCode } from './codes.js';
import { denormalised, ends, normalised, saidText, type ConversationMemo, type MemoNode } from './memo.js';

/** Heap limit of a box, so a runaway allocation ends that box, not the machine (MB). */
const BOX_HEAP_MB = 512;

/** Starting a box and loading a file with tsx takes about half a second; a cold cache on a slow machine, a few. */
export const DEFAULT_LOAD_TIMEOUT_MS = 20_000;
/** Per run: far above what any of the 17 needs (a few milliseconds), short enough to wait out. */
export const DEFAULT_RUN_TIMEOUT_MS = 3000;

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How a box was lost: killed at its time limit, or ended on its own (it exited, was killed, broke the protocol). */
export interface Loss {
  killed: boolean;
  /** The step of the run it was in (0: loading, building, or between runs). */
  step: number;
  exit: ExitInfo;
  /** Why the harness stopped listening, when the box broke the protocol (wrote a message of its own). */
  protocol?: Message<BoxCode>;
}

/** The box is gone: every request awaited of it is rejected with this, saying how (once the process has ended). */
export class BoxGone extends Error {
  override readonly name = 'BoxGone';
  readonly loss: Loss | null;
  /** How, as a message (its code text is the `.message`). */
  readonly said: Message<BoxCode>;

  constructor(said: Message<BoxCode>, loss: Loss | null = null) {
    super(codeText(said));
    this.said = said;
    this.loss = loss;
  }
}

/** How a box was lost, as a message. */
export function describeLoss(loss: Loss, timeoutMs: number): Message<BoxCode> {
  const where = loss.step > 0 ? say('box.where.step', { step: loss.step }) : say('box.where.between');
  if (loss.killed) return say('box.gone.killed', { ms: timeoutMs, where });
  if (loss.protocol !== undefined) return say('box.gone.protocol', { where, why: loss.protocol });
  if (loss.exit.signal !== null) return say('box.gone.signal', { signal: loss.exit.signal, where });
  return say('box.gone.exited', { code: String(loss.exit.code), where });
}

const say = (code: BoxCode, params?: Record<string, Param>): Message<BoxCode> => message(code, params);
const GONE = say('grade.process.gone');

/**
 * The messages a box may send of an error faultlab made in it (process.exit called, a value that is no Error,
 * the determinism guard, a file without a runner class), with the values each needs. A box is the learner's:
 * anything else it sends as a message is taken as its own text, so it can never make the harness word a code
 * that does not exist or lacks a value.
 */
const FROM_BOX: Readonly<Record<string, readonly string[]>> = {
  'grade.process.notAnError': ['value'],
  'cli.runner.calledExit': ['code'],
  'grade.determinism': ['call'],
  'runner.notImplemented': ['what'],
  'target.noRunnerClass': ['file', 'found'],
  'target.exportsNothing': [],
  'box.value.notSendable': ['why'],
  'grade.process.frameTooLong': ['length', 'max'],
  'grade.process.unreadable': [],
};

function fromBox(said: unknown): Message | undefined {
  if (!isMessage(said) || !Object.hasOwn(FROM_BOX, said.code)) return undefined;
  const params = Object.entries(said.params);
  const names = FROM_BOX[said.code]!;
  if (params.length !== names.length || !names.every((name) => Object.hasOwn(said.params, name))) return undefined;
  return params.every(([, value]) => typeof value === 'string' || typeof value === 'number' || fromBox(value) !== undefined) ? said : undefined;
}

/** What a box says was thrown, as the harness takes it: its text, or one of the messages it may send. */
function taken(info: unknown): { name: string; message: string | Message; stack?: string } {
  const i = (typeof info === 'object' && info !== null ? info : {}) as { name?: unknown; message?: unknown; stack?: unknown };
  if (i.message === undefined) return { name: 'Error', message: say('grade.process.unreadable') };
  const message = fromBox(i.message) ?? (isMessage(i.message) ? codeText(i.message) : String(i.message));
  return { name: String(i.name), message, ...(typeof i.stack === 'string' ? { stack: i.stack } : {}) };
}

/** What a worker's calls are carried out on, in the harness (src/box/boxedWorker.ts). */
export interface WorkerCalls {
  db: { get(sql: unknown, params?: unknown): Promise<unknown>; all(sql: unknown, params?: unknown): Promise<unknown>; run(sql: unknown, params?: unknown): Promise<unknown>; exec(sql: unknown): Promise<unknown> };
  clock: { nowMs(): number };
}

export interface BoxOptions {
  loadTimeoutMs?: number;
  runTimeoutMs?: number;
}

/** `shipped`: the file's code holds one of faultlab's own runners (compile.ts), not only the learner's. */
/** `worker`: the file holds the second exercise's class (src/runner/BaseWorker.ts), with its static fence as it said it. */
export type Opened = { kind: 'ready'; box: Box; runnerName: string; shipped: Shipped | null; worker?: { fence: unknown } } | { kind: 'load_error'; error: ThrownInfo } | { kind: 'gone'; loss: Loss };


/**
 * Every box alive in this process. When the process exits — however: the end of a command, Ctrl-C, an error — its
 * boxes are killed with it: a box in the middle of a step never reads its channel again, so it would not notice.
 */
const alive = new Set<Box>();
let exitHook = false;
function watchExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const box of alive) box.killNow();
  });
}

/** A build's or a step's conversation while a memo serves the run (memo.ts). */
interface Conversation {
  instance: number;
  /** Where it stands in the memo; null: it is not remembered (the learner printed, an error came from before). */
  node: MemoNode | null;
  /** The numbers of the errors sent into it, in order (remembered as their places). */
  refs: number[];
  /** The box has been told it (it reached a message the memo did not know). */
  live: boolean;
  /** What the harness said that the box has not been told yet. */
  held: Buffer[];
  /** The texts of the messages served from the memo, which the box must repeat when it is told. */
  served: string[];
  /** A build's request (owed to the box if the memo answers it). */
  build: Buffer | null;
}

interface Waiting {
  resolve(message: FromLearner): void;
  reject(error: BoxGone): void;
}

export class Box {
  readonly #child: ChildProcess;
  readonly #socket: Socket;
  readonly #exited: Promise<ExitInfo>;
  readonly #runTimeoutMs: number;
  /** What each instance's calls are carried out on: a runner's deps, or a worker's (its statements, the clock). */
  readonly #instances = new Map<number, Partial<Record<CallTarget, object>>>();
  /** Errors sent into the learner's code during this run, by number: one that comes back out is rethrown as itself. */
  readonly #sent = new Map<number, unknown>();
  readonly #inbox: FromLearner[] = [];
  #waiting: Waiting | null = null;
  #nextInstance = 1;
  #nextRef = 1;
  #lastReturned: unknown = undefined;
  #output = '';
  #cut = false;
  #step = 0;
  #timer: NodeJS.Timeout | null = null;
  /** What is left of the run's time limit (ms); null outside a run. */
  #runLeftMs: number | null = null;
  #armedAt = 0;
  #killed = false;
  #loss: Loss | null = null;
  #protocol: Message<BoxCode> | undefined;
  #closed = false;
  #serving = 0;
  /** This run's memo (null: every message goes to the box), its conversation under way, and what the box is owed. */
  #memo: ConversationMemo | null = null;
  #conversation: Conversation | null = null;
  /** Requests the box has not been told that a live conversation needs first: the run's start, the builds the memo answered. */
  #owed: Buffer[] = [];
  /** The texts of what the box must answer the owed builds with, and, while it catches up, what it must say first. */
  #owedAnswers: string[] = [];
  #expected: string[] = [];

  private constructor(child: ChildProcess, runTimeoutMs: number, walls: Isolation) {
    this.#child = child;
    this.#runTimeoutMs = runTimeoutMs;
    this.#socket = child.stdio[3] as Socket;
    this.#exited = new Promise<ExitInfo>((resolve) => {
      child.once('exit', (code, signal) => resolve(walls.exit(code, signal)));
      child.once('error', () => resolve({ code: null, signal: null }));
    });
    const reader = new FrameReader(
      (message) => this.#arrived(message),
      (why) => this.#brokeProtocol(why),
      MAX_BOX_FRAME_BYTES,
    );
    this.#socket.on('data', (chunk: Buffer) => reader.push(chunk));
    this.#socket.on('error', () => {}); // a box that dies mid-write: its exit says what happened
    this.#socket.on('close', () => {
      this.#closed = true;
      this.#tellWaiting();
    });
    // An idle box never keeps its harness alive: a command ends when its work does, and the box sees its channel
    // close. While the harness waits for an answer, the channel holds the event loop (#receive).
    child.unref();
    this.#socket.unref();
  }

  /** Compile `file`, start a box on it and wait until its module is loaded (or the load limit passes). */
  static async open(file: string, options: BoxOptions = {}): Promise<Opened> {
    const dir = makeTempDir('box');
    const compiled = join(dir, 'runner.mjs');
    let shipped: Shipped | null;
    const walls = isolation();
    try {
      ({ shipped } = await compileModule(file, compiled, walls.runnerSeenAt(compiled)));
    } catch (error) {
      removeTempDir(dir);
      if (error instanceof CompileError) return { kind: 'load_error', error: { name: 'CompileError', message: error.message } };
      throw error;
    }
    // A minimal environment (TMPDIR alone): nothing of the harness's (its variables, a test runner's loader flags)
    // reaches the learner's code; its temporary folder is its own.
    const { command, args, env } = walls.start({ dir, host: await hostModule(), runner: compiled }, ['--enable-source-maps', `--max-old-space-size=${BOX_HEAP_MB}`], [file]);
    const child = spawn(command, args, {
      // What the learner prints is captured inside the box and sent with each message; fd 3 is the channel.
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      env,
      detached: true, // its own process group: what it starts can be killed with it
    });
    const box = new Box(child, options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS, walls);
    alive.add(box);
    watchExit();
    void box.#exited.then(() => {
      alive.delete(box);
      removeTempDir(dir);
    });
    box.#arm(options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS);
    let first: FromLearner;
    try {
      first = await box.#receive();
    } catch {
      return { kind: 'gone', loss: (await box.lost())! };
    } finally {
      box.#disarm();
    }
    if (first.t === 'ready' && typeof first.runner === 'string') return { kind: 'ready', box, runnerName: first.runner, shipped, ...(first.kind === 'worker' ? { worker: { fence: first.fence } } : {}) };
    await box.dispose();
    if (first.t === 'load_error') return { kind: 'load_error', error: taken(first.error) };
    return { kind: 'load_error', error: { name: 'ProtocolError', message: say('grade.process.notReady', { said: JSON.stringify(first).slice(0, 100) }) } };
  }

  /** True once the box is gone (it exited, was killed, or broke the protocol). */
  get gone(): boolean {
    return this.#loss !== null || this.#closed || this.#child.exitCode !== null || this.#child.signalCode !== null || this.#killed || this.#protocol !== undefined;
  }

  /** How the box was lost, once it is; null while it is up. Resolves when the process has really ended. */
  async lost(): Promise<Loss | null> {
    if (!this.gone) return null;
    if (this.#loss === null) {
      const step = this.#step;
      const exit = await this.#ended();
      this.#loss ??= { killed: this.#killed, step, exit, ...(this.#protocol !== undefined ? { protocol: this.#protocol } : {}) };
    }
    return this.#loss;
  }

  /** What the learner's code printed since the last call, at most MAX_OUTPUT_CHARS per run. */
  takeOutput(): Printed {
    const out = { text: this.#output, cut: this.#cut };
    this.#output = '';
    this.#cut = false;
    return out;
  }

  /**
   * A new run: the box forgets its runners, errors are numbered afresh, and the run gets its time limit — spent
   * only while the box has the ball (from a request or an answer sent to it until its next message): the
   * harness's own work, slow on a busy machine, is never counted against the learner's code.
   */
  beginRun(memo: ConversationMemo | null = null): void {
    this.#instances.clear();
    this.#sent.clear();
    this.#lastReturned = undefined;
    this.#step = 0;
    this.#memo = memo !== null && !memo.diverged ? memo : null;
    this.#conversation = null;
    this.#owed = [];
    this.#owedAnswers = [];
    this.#expected = [];
    this.#send({ t: 'run' });
    this.#runLeftMs = this.#runTimeoutMs;
  }

  /** The run is over (however it ended): its time limit no longer runs. */
  endRun(): void {
    this.#pause();
    this.#runLeftMs = null;
  }

  /**
   * Hold the box's runner to the reference's transcripts (transcript.ts): each script's run is answered in the box
   * from the replies written in it — all told in one write, no round trip per message. Resolves to the digest of
   * what the runner said in each, in order (what it printed meanwhile is dropped: no run's output is shown for a
   * scenario held to an exploration). Between runs; each check has a run's time limit. Rejects with BoxGone.
   */
  async check(scripts: readonly string[]): Promise<string[]> {
    if (this.gone) throw new BoxGone(GONE);
    this.#memo = null;
    this.#conversation = null;
    this.#step = 0;
    this.#socket.write(Buffer.concat(scripts.map((script) => encodeText(script))));
    const digests: string[] = [];
    try {
      for (let i = 0; i < scripts.length; i += 1) {
        this.#runLeftMs = this.#runTimeoutMs;
        const message = await this.#receiveInTime();
        if (message.t !== 'checked' || typeof message.digest !== 'string') {
          this.#brokeProtocol(say('grade.process.unexpected', { message: JSON.stringify(message).slice(0, 80) }));
          throw new BoxGone(GONE);
        }
        digests.push(message.digest);
      }
    } finally {
      this.#runLeftMs = null;
      this.takeOutput(); // what it printed in a check is no run's, and shown nowhere
    }
    return digests;
  }

  /** Build a runner in the box with these deps; resolves to its number. Rejects with what its constructor threw. */
  async build(deps: RunnerDeps | WorkerCalls, leaseMs?: number): Promise<number> {
    const instance = this.#nextInstance++;
    this.#instances.set(instance, deps as unknown as Partial<Record<CallTarget, object>>);
    this.#send(leaseMs === undefined ? { t: 'build', instance } : { t: 'build', instance, leaseMs });
    await this.#serve();
    return instance;
  }

  async step(instance: number, state: RunnerState): Promise<RunnerState> {
    this.#step += 1;
    // The same object as the last step returned goes back as a mark (the box hands it on); not while a memo serves
    // the run: a step it answered may never have reached the box.
    const same = state === this.#lastReturned && state !== undefined && this.#memo === null;
    this.#send(same ? { t: 'step', instance } : { t: 'step', instance, state });
    const returned = (await this.#serve()) as RunnerState;
    // A value that is no state at all (undefined, a number) is the harness's to report as such; one that looks
    // like a state must be one whole, before any of faultlab's code reads it.
    const problem = typeof returned === 'object' && returned !== null && typeof returned.status === 'string' ? stateProblem(returned) : null;
    if (problem !== null) throw new LearnerValueError(say('box.value.stepReturned', { problem }));
    this.#lastReturned = returned;
    return returned;
  }

  /** A worker's method (the second exercise): what it returned, unchecked (the caller checks it), or what it threw. */
  async invoke(instance: number, method: WorkerMethod, args: unknown[]): Promise<unknown> {
    this.#step += 1;
    this.#send({ t: 'invoke', instance, method, args });
    return this.#serve();
  }

  async dispose(): Promise<void> {
    this.#disarm();
    this.#kill();
    this.#socket.destroy();
    await this.#ended();
  }

  /** The box's end: while it is awaited, the process waits for it (an idle box holds nothing). */
  async #ended(): Promise<ExitInfo> {
    this.#child.ref();
    try {
      return await this.#exited;
    } finally {
      this.#child.unref();
    }
  }

  /** The box has the ball: what is left of the run's time limit runs. */
  #resume(): void {
    if (this.#runLeftMs === null || this.#timer !== null) return;
    this.#armedAt = performance.now();
    this.#arm(this.#runLeftMs);
  }

  /** The harness has the ball: the run's time limit stops, keeping what is left of it. */
  #pause(): void {
    if (this.#runLeftMs === null || this.#timer === null) return;
    this.#disarm();
    this.#runLeftMs = Math.max(0, this.#runLeftMs - (performance.now() - this.#armedAt));
  }

  #arm(ms: number): void {
    this.#disarm();
    this.#timer = setTimeout(() => {
      this.#killed = true;
      this.#kill();
    }, ms);
    this.#timer.unref();
  }

  #disarm(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Kill the box at once (its process group too), without waiting for it. */
  killNow(): void {
    this.#kill();
  }

  #kill(): void {
    const pid = this.#child.pid;
    if (pid === undefined) return;
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL'); // the group first: what the box started goes with it
      } catch {
        // already gone
      }
    }
  }

  #send(message: ToLearner): void {
    if (this.gone) throw new BoxGone(GONE);
    const frame = encodeFrame(message);
    if (this.#memo === null) {
      this.#socket.write(frame);
      return;
    }
    if (message.t === 'run') {
      this.#owed = [frame]; // told with the first conversation the memo cannot answer
      return;
    }
    if (message.t === 'build' || message.t === 'step') {
      this.#conversation = { instance: message.instance, node: null, refs: [], live: false, held: [], served: [], build: message.t === 'build' ? frame : null };
    }
    const conversation = this.#conversation;
    if (conversation === null) return this.#tell([frame]); // nothing else is remembered (a worker's method)
    if (message.t === 'reply' && !message.ok) conversation.refs.push(message.error.ref);
    const said = saidText(message, conversation.refs);
    conversation.node = message.t === 'reply' ? conversation.node && this.#memo.after(conversation.node, said) : this.#memo.after(null, said);
    if (conversation.live) this.#socket.write(frame);
    else conversation.held.push(frame);
  }

  /** Tell the box what it is owed, then these. */
  #tell(frames: Buffer[]): void {
    this.#expected.push(...this.#owedAnswers);
    const all = [...this.#owed, ...frames];
    this.#owed = [];
    this.#owedAnswers = [];
    this.#socket.write(all.length === 1 ? all[0]! : Buffer.concat(all));
  }

  /**
   * The learner's next message in a build or a step: from the memo when it knows this conversation, else from the
   * box — told first what it has not been told, and holding to what the memo served of it.
   */
  async #next(): Promise<FromLearner> {
    const memo = this.#memo;
    const conversation = this.#conversation;
    if (memo !== null && conversation !== null && !conversation.live) {
      const answer = conversation.node?.answer;
      if (answer !== undefined) {
        memo.hits += 1;
        conversation.served.push(answer.text);
        if (ends(answer.message)) {
          this.#conversation = null;
          if (conversation.build !== null && answer.message.t === 'built') {
            this.#owed.push(conversation.build); // the box builds it when a step of it must be told
            this.#owedAnswers.push(answer.text);
          }
        }
        return denormalised(answer.message, conversation.instance, conversation.refs);
      }
      memo.misses += 1;
      conversation.live = true;
      this.#tell(conversation.held);
      this.#expected.push(...conversation.served);
      conversation.held = [];
    }
    for (;;) {
      const message = await this.#receiveInTime();
      if (memo === null || conversation === null) return message;
      const remembered = normalised(message, conversation.refs);
      const text = remembered === null ? null : JSON.stringify(remembered);
      const expected = this.#expected.shift();
      if (expected !== undefined) {
        if (text === expected) continue;
        // It said something else for the very same conversation: it is not a function of what it is told.
        memo.diverged = true;
        this.#brokeProtocol(say('box.memo.diverged'));
        throw new BoxGone(GONE);
      }
      if (conversation.node !== null) {
        if (remembered === null || text === null) conversation.node = null;
        else conversation.node.answer ??= { message: remembered, text };
      }
      if (ends(message)) this.#conversation = null;
      return message;
    }
  }

  #arrived(message: unknown): void {
    if (typeof message !== 'object' || message === null) return this.#brokeProtocol(say('grade.process.notAnObject'));
    const m = message as FromLearner;
    if (typeof m.out === 'string' && !this.#cut) {
      const room = MAX_OUTPUT_CHARS - this.#output.length;
      this.#output += m.out.length > room ? m.out.slice(0, room) : m.out;
      if (m.out.length > room || m.cut === true) this.#cut = true;
    } else if (m.cut === true) this.#cut = true;
    const waiting = this.#waiting;
    if (waiting === null) this.#inbox.push(m);
    else {
      this.#waiting = null;
      this.#socket.unref();
      waiting.resolve(m);
    }
  }

  #brokeProtocol(why: Message<BoxCode>): void {
    this.#protocol ??= why;
    this.#kill();
    this.#tellWaiting();
  }

  /** The box is gone: whoever waits for it is told how, once the process has ended. */
  #tellWaiting(): void {
    const waiting = this.#waiting;
    this.#waiting = null;
    if (waiting === null) return;
    void this.lost().then((loss) => waiting.reject(new BoxGone(loss === null ? GONE : describeLoss(loss, this.#runTimeoutMs), loss)));
  }

  /** The box's next message, its time limit running while the box has the ball. */
  async #receiveInTime(): Promise<FromLearner> {
    this.#resume();
    try {
      return await this.#receive();
    } finally {
      this.#pause();
    }
  }

  #receive(): Promise<FromLearner> {
    const queued = this.#inbox.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.gone || this.#socket.destroyed) return Promise.reject(new BoxGone(GONE));
    this.#socket.ref(); // an answer is awaited: the process waits for it
    return new Promise<FromLearner>((resolve, reject) => (this.#waiting = { resolve, reject }));
  }

  /**
   * Answer the learner's calls until its build or step ends: resolves to what the step returned, or rejects
   * with what it threw — the very error object, when it was one of ours (the crash above all: the harness must
   * see its own crash come back to recover from it).
   */
  async #serve(): Promise<unknown> {
    this.#serving += 1;
    try {
      return await this.#serveOne();
    } finally {
      this.#serving -= 1;
    }
  }

  /** A request is under way (a build, a step, a worker's method): the box is inside the learner's code or a call of it. */
  get midCall(): boolean {
    return this.#serving > 0;
  }

  async #serveOne(): Promise<unknown> {
    for (;;) {
      const message = await this.#next();
      switch (message.t) {
        case 'call':
          await this.#answer(message);
          break;
        case 'built':
          return undefined;
        case 'returned':
          return 'value' in message ? message.value : message.state;
        case 'threw': {
          if (message.ref !== undefined && this.#sent.has(message.ref)) {
            const sent = this.#sent.get(message.ref);
            // An error of ours the step let through (a TransientError, say) is told where it passed: the box's stack,
            // with the learner's file and line in it, not the harness's. A crash stays the harness's own.
            const stack = sent instanceof Error && !(sent instanceof Crash) ? taken(message.error).stack : undefined;
            if (stack !== undefined) (sent as Error).stack = stack;
            throw sent;
          }
          const info = taken(message.error);
          const error = new Error(codeText(info.message));
          error.name = info.name;
          if (typeof info.message !== 'string') Object.assign(error, { said: info.message });
          if (info.stack !== undefined) error.stack = info.stack;
          throw error;
        }
        default:
          this.#brokeProtocol(say('grade.process.unexpected', { message: JSON.stringify(message).slice(0, 80) }));
          throw new BoxGone(GONE);
      }
    }
  }

  /** One call of the learner's runner to its deps, carried out on the real object and answered. */
  async #answer(message: Extract<FromLearner, { t: 'call' }>): Promise<void> {
    const deps = this.#instances.get(message.instance);
    const methods = CALLABLE[message.target] as readonly string[] | undefined;
    if (deps === undefined || methods === undefined || !Object.hasOwn(CALLABLE, message.target) || !Object.hasOwn(deps, message.target) || !methods.includes(message.method) || !Array.isArray(message.args)) {
      this.#brokeProtocol(say('grade.process.unanswered', { call: `${String(message.target)}.${String(message.method)}` }));
      throw new BoxGone(GONE);
    }
    const problem = callProblem(message.target, message.method, message.args);
    if (problem !== null) {
      // Thrown into the learner's code where it made the call: if it lets it through, its run fails with it.
      const ref = this.#nextRef++;
      const error = new LearnerValueError(say('box.value.call', { call: `${message.target}.${message.method}()`, problem }));
      this.#sent.set(ref, error);
      this.#send({ t: 'reply', ok: false, error: wireError(ref, error) });
      return;
    }
    let value: unknown;
    try {
      const target = deps[message.target] as unknown as Record<string, (...args: unknown[]) => unknown>;
      value = await target[message.method]!.apply(target, message.args);
      if (message.target === 'events' && message.method === 'save') value = undefined; // the caller keeps its own object
    } catch (error) {
      if (isDiskFull(error)) {
        // The machine's failure, not one for the learner's code to catch: the run stops here, its box with it.
        this.#kill();
        throw error;
      }
      const ref = this.#nextRef++;
      this.#sent.set(ref, error);
      this.#send({ t: 'reply', ok: false, error: wireError(ref, error) });
      return;
    }
    this.#send(value === undefined ? { t: 'reply', ok: true } : { t: 'reply', ok: true, value });
  }
}
