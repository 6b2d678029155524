/**
 * The box: the only place a learner's code runs. It loads the learner's file, says `ready`, then does only what
 * the harness asks — build a runner, run one `step` — inside the determinism guard. The runner it builds gets
 * stand-ins for its deps: each call (policy.nextAction, events.save, tools.execute, …) goes to the harness and
 * waits for the answer, so the databases, the wire, the trace and the checks all stay outside. An error the
 * harness answers with is thrown here as its own kind (TransientError, ContractError, the simulated Crash), and
 * if the step lets it through, the harness is told which one it was.
 *
 * Synchronous from `ready` on: the loop below never returns to the event loop, so nothing the learner's code
 * scheduled ever runs. The harness can kill this process at any moment; it keeps nothing the harness needs.
 *
 * fd 3: the channel (a socket it inherits; no path leads to it). argv: <the learner's file compiled into one
 * module (compile.ts)> <the learner's file, as named in messages>. It words nothing: what it says of an error it
 * made is a message (a code and its values), worded by whoever shows it.
 */
import { message, MessageError, saidOf } from '../core/message.js';
import type { BoxCode } from './codes.js';
import { Crash, type CrashPoint } from '../core/crash.js';
import { ContractError, TransientError, type ContractCode } from '../inventory/errors.js';
import type { RunnerDeps, SyncRunnerClass } from '../runner/BaseRunner.js';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { learnerClassFrom, type LearnerClass } from '../runner/load.js';
import type { WorkerDeps } from '../runner/BaseWorker.js';
import type { RunnerState } from '../runner/state.js';
import { captureOutput } from './captureOutput.js';
import { FrameChannel, ChannelClosed, MAX_BOX_FRAME_BYTES } from './frames.js';
import { installDeterminismGuardForGood } from '../runner/determinismGuard.js';
import { guardRunner } from '../runner/guardRunner.js';
import type { CallTarget, FromLearner, Reply, ThrownInfo, ToLearner, WireError, WorkerMethod } from './protocol.js';
import { answersDigest, answerText } from './transcript.js';

const [compiled, file] = process.argv.slice(2) as [string, string];
const CHANNEL_FD = 3;
const channel = new FrameChannel(CHANNEL_FD, CHANNEL_FD, MAX_BOX_FRAME_BYTES);

let printed = '';
let printedCut = false;
const output = captureOutput((text, cut) => {
  printed += text;
  printedCut ||= cut;
});

/** Send `message` with what was printed since the last; throws, having written nothing, if it cannot be encoded. */
function send(message: FromLearner): void {
  const out = printed;
  const cut = printedCut;
  channel.send(out === '' && !cut ? message : { ...message, out, ...(cut ? { cut: true } : {}) });
  printed = printed.slice(out.length); // a toJSON of the learner's may have printed meanwhile
  if (cut) printedCut = false;
}

function receive(): ToLearner {
  try {
    return channel.receive() as ToLearner;
  } catch (error) {
    if (error instanceof ChannelClosed) exit(0); // the harness is done with us
    throw error;
  }
}

/** What is kept of a thrown error's message and stack: enough to read, never more than a frame can carry. */
const MAX_THROWN_CHARS = 16 * 1024;
const UNREADABLE = message<BoxCode>('grade.process.unreadable');

/** `read()`, or `fallback` when reading throws (a getter that throws, a Proxy's trap): learner values are read warily. */
function wary<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/**
 * What the learner's code threw, as its text (or faultlab's message, when faultlab made the error) — whatever it threw: an Error whose `message` getter throws, a Proxy
 * that throws on every question, an object with no prototype (String() of it throws), a symbol.
 */
function thrown(error: unknown): ThrownInfo {
  if (wary(() => error instanceof Error, false)) {
    const e = error as Error;
    const name = wary(() => String(e.name).slice(0, 200), 'Error');
    const message = wary<ThrownInfo['message']>(() => saidOf(e) ?? String(e.message).slice(0, MAX_THROWN_CHARS), UNREADABLE);
    const stack = wary(() => (typeof e.stack === 'string' ? e.stack.slice(0, MAX_THROWN_CHARS) : undefined), undefined);
    return { name, message, ...(stack !== undefined ? { stack } : {}) };
  }
  const value = wary(() => (typeof error === 'string' ? error : inspect(error, { depth: 1, breakLength: Infinity, customInspect: false, showProxy: true })), `a ${typeof error}`);
  return { name: 'Error', message: message<BoxCode>('grade.process.notAnError', { value: value.slice(0, 200) }) };
}

/** Errors the grader sent, as thrown here: if one comes back out of a step, the grader gets its number. */
const fromGrader = new WeakMap<object, number>();

function asError(wire: WireError): Error {
  let error: Error;
  if (wire.kind === 'crash') error = new Crash(wire.point as CrashPoint, wire.said ?? message<BoxCode>('grade.process.unreadable'));
  else if (wire.kind === 'transient') error = new TransientError(wire.message, { definite: wire.definite ?? false });
  else if (wire.kind === 'contract') error = new ContractError(wire.code as ContractCode, wire.detail ?? '');
  else error = Object.assign(new Error(wire.message), { name: wire.name }, wire.code !== undefined ? { code: wire.code } : {});
  fromGrader.set(error, wire.ref);
  return error;
}

function threw(error: unknown): FromLearner {
  const ref = typeof error === 'object' && error !== null ? fromGrader.get(error) : undefined;
  return { t: 'threw', error: thrown(error), ...(ref !== undefined ? { ref } : {}) };
}

/**
 * A check under way (transcript.ts): the replies left for this step's calls, the numbers of the errors thrown into
 * it, and the digest of everything the runner has said in the check.
 */
let checking: { instance: number; replies: Reply[]; refs: number[]; answers: ReturnType<typeof answersDigest> } | null = null;

/** What the runner said, counted into the check's digest (a value JSON cannot write counts as what no reference says). */
function counted(message: FromLearner): void {
  const check = checking!;
  let text: string;
  try {
    text = answerText(message, check.refs);
  } catch {
    text = '"unsendable"';
  }
  check.answers.add(text);
}

/** A call to one of the runner's deps: done by the grader, answered or thrown here. */
function call(instance: number, target: CallTarget, method: string, args: unknown[]): unknown {
  if (checking !== null) {
    // In a check, answered from the transcript: a call past its replies is one the reference never made, and so is a
    // call through the deps of a runner built before this one (in a run, the harness would carry it out on those).
    if (instance !== checking.instance) {
      checking.answers.add('"a call of a runner built before"');
      throw new Error('faultlab: this call is not in the transcript');
    }
    counted({ t: 'call', instance, target, method, args });
    const reply = checking.replies.shift();
    if (reply === undefined) throw new Error('faultlab: this call is not in the transcript');
    if (reply.ok) return reply.value;
    checking.refs.push(reply.error.ref);
    throw asError(reply.error);
  }
  send({ t: 'call', instance, target, method, args });
  const reply = receive();
  if (reply.t !== 'reply') throw new Error(`faultlab: the harness answered a call with ${reply.t}`);
  if (reply.ok) return reply.value;
  throw asError(reply.error);
}

function depsFor(instance: number): RunnerDeps<'sync'> {
  const events = {
    // The real store returns the very state it was given; so does this one.
    save: <S extends RunnerState>(state: S, label: string): S => (call(instance, 'events', 'save', [state, label]), state),
    last: () => call(instance, 'events', 'last', []),
    lastEvent: () => call(instance, 'events', 'lastEvent', []),
    all: () => call(instance, 'events', 'all', []),
  };
  return {
    policy: { nextAction: (state: RunnerState) => call(instance, 'policy', 'nextAction', [state]) },
    events: events as unknown as RunnerDeps<'sync'>['events'],
    tools: { execute: (action, at) => call(instance, 'tools', 'execute', [action, at]) },
  };
}

/** A worker's deps (the second exercise): each statement and each look at the clock goes to the harness. */
function workerDepsFor(instance: number, leaseMs: number): WorkerDeps {
  return {
    db: {
      get: (sql, params) => call(instance, 'db', 'get', params === undefined ? [sql] : [sql, params]) as never,
      all: (sql, params) => call(instance, 'db', 'all', params === undefined ? [sql] : [sql, params]) as never,
      run: (sql, params) => call(instance, 'db', 'run', params === undefined ? [sql] : [sql, params]) as { changes: number },
      exec: (sql) => void call(instance, 'db', 'exec', [sql]),
    },
    clock: { nowMs: () => call(instance, 'clock', 'nowMs', []) as number },
    leaseMs,
  };
}

/**
 * process.exit is the harness's to call, not the learner's: in their code it throws where it was called — a
 * step that calls it fails with the reason, and a file that calls it while it loads is refused — instead of
 * ending the box. The box itself ends with the real one.
 */
const exit: (code?: number) => never = process.exit.bind(process);
class RunnerExitError extends MessageError {
  override readonly name = 'RunnerExitError';
  constructor(code: unknown) {
    super(message<BoxCode>('cli.runner.calledExit', { code: code === undefined ? '' : String(code) }));
  }
}
/** A state the channel cannot carry: the step's failure, a TypeError as the learner's code would see one. */
class StateNotSendable extends MessageError {
  override readonly name = 'TypeError';
  constructor(why: ThrownInfo['message']) {
    super(message<BoxCode>('box.value.notSendable', { why }));
  }
}

process.exit = ((code?: unknown) => {
  throw new RunnerExitError(code);
}) as typeof process.exit;

let found: LearnerClass;
try {
  found = learnerClassFrom((await import(pathToFileURL(compiled).href)) as Record<string, unknown>, file);
} catch (error) {
  send({ t: 'load_error', error: thrown(error) });
  exit(0);
}
// From here on only the learner's constructor and methods run in this process, and this loop, which needs no
// clock and no chance: the determinism guard goes in for good.
const guard = installDeterminismGuardForGood();
type Built = { step(state: RunnerState): unknown } | Record<WorkerMethod, (...args: unknown[]) => unknown>;
let build: (instance: number, request: Extract<ToLearner, { t: 'build' }>) => Built;
if (found.kind === 'runner') {
  const Guarded = guardRunner(found.cls as unknown as SyncRunnerClass, guard);
  build = (instance) => new Guarded(depsFor(instance));
  send({ t: 'ready', runner: Guarded.name });
} else {
  const Worker = found.cls;
  build = (instance, request) => guard(() => new Worker(workerDepsFor(instance, request.leaseMs ?? 0))) as unknown as Built;
  send({ t: 'ready', runner: Worker.name || 'anonymous worker', kind: 'worker', fence: wary(() => Worker.fence, undefined) });
}

const instances = new Map<number, Built>();
/** What the last step returned, handed back as the same object when the harness passes it on. */
let last: unknown;

for (;;) {
  const request = receive();
  if (request.t === 'run') {
    instances.clear();
    last = undefined;
    output.reset();
  } else if (request.t === 'build') {
    try {
      instances.set(request.instance, build(request.instance, request));
      send({ t: 'built' });
    } catch (error) {
      send(threw(error));
    }
  } else if (request.t === 'step') {
    const runner = instances.get(request.instance);
    try {
      if (runner === undefined) throw new Error(`faultlab: no runner #${request.instance} in the learner's process`);
      // An async step (written as the reference is) resolves within this turn: every call it awaits answered at once.
      if (!('step' in runner)) throw new Error(`faultlab: #${request.instance} is a worker, not a runner`);
      const stepped = runner.step((request.state ?? last) as RunnerState);
      const returned = stepped instanceof Promise ? await stepped : stepped;
      last = returned;
      try {
        send({ t: 'returned', state: returned });
      } catch (error) {
        if (error instanceof ChannelClosed) throw error;
        // A state the channel cannot carry (a BigInt, a cycle, megabytes) is the step's failure, said as such.
        throw new StateNotSendable(thrown(error).message);
      }
    } catch (error) {
      send(threw(error));
    }
  } else if (request.t === 'check') {
    // A transcript's run (transcript.ts): every step answered from its script, nothing sent until the digest.
    instances.clear();
    last = undefined;
    output.reset();
    const answers = answersDigest();
    let runner: Built | undefined;
    let built = 0;
    for (const step of request.steps) {
      if (step.b === true) {
        built += 1;
        checking = { instance: built, replies: [], refs: [], answers };
        try {
          runner = build(built, { t: 'build', instance: built });
          counted({ t: 'built' });
        } catch (error) {
          runner = undefined;
          counted(threw(error));
        }
      }
      checking = { instance: built, replies: [...step.r], refs: [], answers };
      try {
        if (runner === undefined || !('step' in runner)) throw new Error('faultlab: no runner to step in this check');
        const stepped = runner.step((step.s ?? last) as RunnerState);
        const returned = stepped instanceof Promise ? await stepped : stepped;
        last = returned;
        counted({ t: 'returned', state: returned });
      } catch (error) {
        counted(threw(error));
      }
    }
    checking = null;
    send({ t: 'checked', digest: answers.digest() }); // with what it printed, if it did: the harness drops it
  } else if (request.t === 'invoke') {
    const worker = instances.get(request.instance);
    try {
      if (worker === undefined || 'step' in worker) throw new Error(`faultlab: no worker #${request.instance} in the learner's process`);
      const method = request.method;
      // Under the guard, as a step is; an async method resolves within this turn (every call answers at once).
      const called = guard(() => worker[method]!.apply(worker, request.args));
      const value =
        called instanceof Promise
          ? await called.then(
              (v: unknown) => guard(() => v, true),
              (e: unknown) =>
                guard(() => {
                  throw e;
                }, true),
            )
          : called;
      send(value === undefined ? { t: 'returned' } : { t: 'returned', value });
    } catch (error) {
      send(threw(error));
    }
  }
}
