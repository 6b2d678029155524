/**
 * The reference's transcripts, and how a box is held to them. A run is the harness talking to a runner: the
 * harness hands a step its state and answers each of its calls; the runner calls, and returns (or throws). The
 * harness is deterministic, so a run is a function of what the runner said: a runner that says, to every word the
 * harness says in a run, what the reference said to it, has the reference's run — its trace, its log, its verdict.
 *
 * So the grader records, once per scenario, the transcript of every run the reference has in that scenario's
 * exploration (each schedule from its pause, and the run as written resumed from each of its pauses): what the
 * harness said (the script) and a digest of what the reference answered. A learner's box is then handed each
 * script (one `check` frame, no round trip per message: the replies are written in it) and answers with the digest
 * of what its own runner said; where every digest of a scenario is the reference's, and its run as written is the
 * reference's too, every explored schedule of that scenario is the reference's run, already judged (src/grade).
 * Where one differs, that scenario is explored as ever, run by run.
 *
 * `answerText` is the one way a runner's message is written for a digest, in the box and here; a message whose
 * words cannot count (something printed, an error from another step) gets a text the reference never says.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Runner, RunnerClass, RunnerDeps } from '../runner/BaseRunner.js';
import type { RunnerState } from '../runner/state.js';
import { NOTHING_PRINTED, type Printed } from './captureOutput.js';
import type { Loss } from './Box.js';
import type { ConversationMemo } from './memo.js';
import { IN_A_BOX } from './boxedRunner.js';
import type { FromLearner, Reply } from './protocol.js';
import { wireError } from './wire.js';

/** One run's transcript: the `check` frame's JSON, and the digest of the reference's answers to it. */
export interface Transcript {
  script: string;
  digest: string;
}

/** The digest of a runner's answers: each answer's text, a line each. */
export function answersDigest(): { add(text: string): void; digest(): string } {
  const hash: Hash = createHash('sha256');
  return {
    add: (text) => void hash.update(`${text}\n`),
    digest: () => hash.digest('base64url'),
  };
}

/**
 * A runner's message as a digest counts it: a call without its instance, an error of the harness's that the step
 * let through by its place among the errors sent into this step (`refs`), the rest as JSON. An error that is not
 * one sent into this step is written so that it matches nothing the reference says. What the runner printed is no
 * part of it: an explored run's output is shown only for a run that hung or whose box died, and those are never held.
 */
export function answerText(message: FromLearner, refs: readonly number[]): string {
  switch (message.t) {
    case 'call':
      return JSON.stringify({ t: 'call', target: message.target, method: message.method, args: message.args });
    case 'returned':
      return JSON.stringify({ t: 'returned', state: message.state });
    case 'threw':
      return message.ref !== undefined && refs.includes(message.ref) ? JSON.stringify({ t: 'threw', ref: refs.indexOf(message.ref) }) : '"threw its own"';
    case 'built':
      return BUILT;
    default:
      return JSON.stringify(message.t);
  }
}

const BUILT = '{"t":"built"}';

/** The reply to a call as a box is told it: a value (none for `events.save`), or the error under its number. */
function replyText(reply: Reply): string {
  return JSON.stringify(reply);
}

/** Around each run (src/target/runners.ts, RunHooks): where the box begins and ends it. */
interface RunHooks {
  beginRun(memo?: ConversationMemo | null): Promise<void>;
  endRun(): Promise<{ output: Printed; loss: Loss | null }>;
}

interface StepRecord {
  build: boolean;
  state: string | null;
  replies: string[];
  /** The numbers of the errors sent into this step, in order. */
  refs: number[];
}

interface RunRecord {
  steps: StepRecord[];
  answers: ReturnType<typeof answersDigest>;
  /** A runner was built since the last step. */
  built: boolean;
  lastReturned: unknown;
  /** Every error sent into this run, by the object, with its number. */
  sent: Map<unknown, number>;
  nextRef: number;
  step: StepRecord | null;
}

/**
 * Records the transcripts of the runs of a runner in this thread (the reference): its class, wrapped, says every
 * call and answer as a box would (`runnerClass`); its hooks mark where each run begins and ends. Each transcript is
 * handed to `onRun` as its run ends.
 */
export class TranscriptRecorder {
  #run: RunRecord | null = null;
  /** Told each run's transcript as it ends (null: the runs are not kept). */
  onRun: ((transcript: Transcript) => void) | null;
  /**
   * A step threw an error of its own (not one the harness sent into it) since this was last set false: what it
   * threw is not in its answers' digest, so an exploration with such a run is not one to hold another runner to.
   */
  threwItsOwn = false;

  constructor(onRun: ((transcript: Transcript) => void) | null = null) {
    this.onRun = onRun;
  }

  /** Where each run begins and ends, for a runner in this thread. */
  readonly hooks: RunHooks = this.around({ beginRun: async () => {}, endRun: async () => ({ output: NOTHING_PRINTED, loss: null }) });

  /** A box's hooks, with each run's recording begun before the box's run and ended after it. */
  around(box: RunHooks): RunHooks {
    return {
      beginRun: async (memo) => {
        this.#run = this.onRun === null ? null : { steps: [], answers: answersDigest(), built: false, lastReturned: undefined, sent: new Map(), nextRef: 1, step: null };
        await box.beginRun(memo);
      },
      endRun: async () => {
        const ended = await box.endRun();
        const run = this.#run;
        this.#run = null;
        if (run !== null && run.steps.length > 0) this.onRun?.({ script: scriptOf(run.steps), digest: run.answers.digest() });
        return ended;
      },
    };
  }

  /** `Inner`, recorded: the same runs (it keeps nothing between steps, as a box's runner: it may share connections). */
  runnerClass(Inner: RunnerClass): RunnerClass {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const recorder = this;
    const Recorded = class implements Runner {
      readonly #inner: Runner;
      /** A runner in a box: its constructor there has run (the harness awaits it); none for the reference. */
      readonly ready?: () => Promise<void>;

      constructor(deps: RunnerDeps) {
        recorder.#built();
        const inner = new Inner(recorder.#deps(deps));
        this.#inner = inner;
        if (typeof inner.ready === 'function') this.ready = () => inner.ready!();
      }

      step(state: RunnerState): Promise<RunnerState> {
        return recorder.#step(state, () => this.#inner.step(state));
      }
    };
    Object.defineProperty(Recorded, 'name', { value: Inner.name });
    Object.defineProperty(Recorded, IN_A_BOX, { value: true });
    return Recorded;
  }

  #built(): void {
    if (this.#run !== null) this.#run.built = true;
  }

  async #step(state: RunnerState, step: () => RunnerState | Promise<RunnerState>): Promise<RunnerState> {
    const run = this.#run;
    if (run === null) return step();
    const record: StepRecord = { build: run.built, state: state === run.lastReturned && state !== undefined ? null : JSON.stringify(state), replies: [], refs: [] };
    run.built = false;
    run.step = record;
    if (record.build) run.answers.add(BUILT);
    try {
      const returned = await step();
      run.answers.add(answerText({ t: 'returned', state: returned }, record.refs));
      run.lastReturned = returned;
      return returned;
    } catch (error) {
      const ref = run.sent.get(error);
      if (ref === undefined) this.threwItsOwn = true;
      run.answers.add(answerText({ t: 'threw', error: { name: 'Error', message: '' }, ...(ref !== undefined ? { ref } : {}) }, record.refs));
      throw error;
    } finally {
      run.steps.push(record);
      run.step = null;
    }
  }

  /** A call of the runner's: said as a box says it, carried out, and its reply written as a box is told it. */
  #call<T>(target: Extract<FromLearner, { t: 'call' }>['target'], method: string, args: unknown[], carry: () => T): T {
    const run = this.#run;
    const record = run?.step ?? null;
    if (run === null || record === null) return carry();
    run.answers.add(answerText({ t: 'call', instance: 0, target, method, args }, record.refs));
    const failed = (error: unknown) => {
      const ref = run.nextRef++;
      run.sent.set(error, ref);
      record.refs.push(ref);
      record.replies.push(replyText({ t: 'reply', ok: false, error: wireError(ref, error) }));
    };
    const replied = (value: unknown) => {
      const shown = target === 'events' && method === 'save' ? undefined : value; // a box's save keeps its own object
      record.replies.push(replyText(shown === undefined ? { t: 'reply', ok: true } : { t: 'reply', ok: true, value: shown }));
    };
    let value: T;
    try {
      value = carry();
    } catch (error) {
      failed(error);
      throw error;
    }
    if (value instanceof Promise) {
      return value.then(
        (v: unknown) => (replied(v), v),
        (error: unknown) => {
          failed(error);
          throw error;
        },
      ) as T;
    }
    replied(value);
    return value;
  }

  #deps(deps: RunnerDeps): RunnerDeps {
    const call = <T>(target: 'policy' | 'events' | 'tools', method: string, args: unknown[], carry: () => T) => this.#call(target, method, args, carry);
    const { policy, events, tools } = deps;
    // The arguments as the box's stand-ins send them (host.ts, depsFor).
    return {
      policy: { nextAction: (state) => call('policy', 'nextAction', [state], () => policy.nextAction(state)) },
      events: {
        save: (state, label) => call('events', 'save', [state, label], () => events.save(state, label)),
        last: () => call('events', 'last', [], () => events.last()),
        lastEvent: () => call('events', 'lastEvent', [], () => events.lastEvent()),
        all: () => call('events', 'all', [], () => events.all()),
      } as RunnerDeps['events'],
      tools: { execute: (action, at) => call('tools', 'execute', [action, at], () => tools.execute(action, at)) },
    };
  }
}

/** A run's steps as the `check` frame's JSON, written from the texts recorded (nothing parsed again). */
function scriptOf(steps: readonly StepRecord[]): string {
  const written = steps.map((step) => `{${step.build ? '"b":true,' : ''}${step.state !== null ? `"s":${step.state},` : ''}"r":[${step.replies.join(',')}]}`);
  return `{"t":"check","steps":[${written.join(',')}]}`;
}
