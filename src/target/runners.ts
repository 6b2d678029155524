/**
 * What a run runs: the runner under test and the tool it meets, named the way every command names them —
 * `reference`, `learner` (src/runner/LearnerRunner.ts), `mutant:NAME` (a deliberately broken runner or
 * store, src/mutants/catalogue.ts) or the path of a .ts/.js file exporting a runner class. This is the one
 * loader for runners: a file is a learner's code, and it runs in a box (src/box), whatever command runs it.
 * A RunnerSource is data, so it can cross to a worker thread; `openRunner` turns it into a runner there.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { Box, describeLoss, DEFAULT_RUN_TIMEOUT_MS, type BoxOptions, type Loss } from '../box/Box.js';
import { boxedRunnerClass } from '../box/boxedRunner.js';
import { boxedQueueClass, WorkerBoxes } from '../box/boxedWorker.js';
import type { BoxCode } from '../box/codes.js';
import type { Shipped } from '../box/compile.js';
import { NOTHING_PRINTED, type Printed } from '../box/captureOutput.js';
import type { ThrownInfo } from '../box/protocol.js';
import type { ConversationMemo } from '../box/memo.js';
import { codeText, message, type Said } from '../core/message.js';
import type { TargetCode } from './codes.js';
import type { ToolClass } from '../inventory/InventoryTool.js';
import type { QueueClass } from '../queue/QueueStore.js';
import type { WorkerClass } from '../runner/ReferenceWorker.js';
import { LIMIT_MUTANTS, MUTANTS, mutantNamed, QUEUE_MUTANTS } from '../mutants/catalogue.js';
import type { RunnerClass } from '../runner/BaseRunner.js';
import { RunnerLoadError } from '../runner/load.js';
import { LEARNER_FILE } from '../core/paths.js';
import { ReferenceRunner } from '../runner/ReferenceRunner.js';

export type RunnerSource =
  | { kind: 'reference' }
  /** A .ts/.js file exporting a runner class (the learner's, or any other). */
  | { kind: 'file'; file: string }
  /** One of the deliberately broken runners or stores of src/mutants/catalogue.ts. */
  | { kind: 'mutant'; name: string };

/** What a run of a runner left outside the trace: what its code printed, and how its box was lost, if it was. */
export interface RunEnd {
  output: Printed;
  loss: Loss | null;
}

/** Around each run of a runner: what a box needs (a new process if the last was lost, the run's time limit, its output). */
export interface RunHooks {
  /** `memo`: what the learner's steps said before, to serve this run's conversations it knows (src/box/memo.ts). */
  beginRun(memo?: ConversationMemo | null): Promise<void>;
  endRun(): Promise<RunEnd>;
}

export interface OpenedRunner extends RunHooks {
  runner: RunnerClass;
  /** A deliberately broken store goes with some mutants. */
  tool?: ToolClass;
  /** A deliberately broken queue or worker loop goes with the queue's mutants (many workers); a learner's worker file (the second exercise) is its queue. */
  queue?: QueueClass;
  /** The file holds a worker (the second exercise): it runs on the many-worker scenarios only. */
  isWorker?: boolean;
  worker?: WorkerClass;
  /** What to call it in messages: `reference`, `learner`, `mutant:NAME` or the path as given. */
  label: string;
  /** The runner's file, absolute, when it came from one. */
  file?: string;
  source: RunnerSource;
  /** The runner class's own name (for a file: the class its box found). */
  name: string;
  /** A file whose code holds one of faultlab's own runners — the shipped reference or a mutant — not only its author's. */
  shipped?: Shipped | null;
  /** Only a box needs these: null for the reference and the mutants. */
  hooks: RunHooks | null;
  /**
   * A runner in a box, held to the reference's transcripts (src/box/transcript.ts): the digest of its answers to each
   * script, in order. A new box if the last was lost. Rejects with BoxGone if this one is.
   */
  check?(scripts: readonly string[]): Promise<string[]>;
  /** The box's process ends (nothing to do for a runner in this thread). */
  close(): Promise<void>;
}

/** A runner file that could not be loaded in its box: what it threw, or how the box was lost while loading. */
export class RunnerLoadFailed extends Error {
  override readonly name = 'RunnerLoadFailed';
  readonly thrown: ThrownInfo | null;
  readonly loss: Loss | null;
  /** What went wrong: what the file threw, or how its box was lost (its code text is the `.message`). */
  readonly said: Said;
  /** What the file was seen to hold before it was refused (a worker with no fence), if it got that far. */
  readonly kind: 'runner' | 'worker' | null;

  constructor(said: Said, thrown: ThrownInfo | null, loss: Loss | null, kind: 'runner' | 'worker' | null = null) {
    super(codeText(said));
    this.said = said;
    this.thrown = thrown;
    this.loss = loss;
    this.kind = kind;
  }
}

/** The source a `--runner` value names; throws RunnerLoadError for an unknown mutant. */
export function sourceOf(name: string | undefined, cwd: string): RunnerSource {
  if (name === undefined || name === 'reference') return { kind: 'reference' };
  if (name.startsWith('mutant:')) {
    const mutant = name.slice('mutant:'.length);
    if (mutantNamed(mutant) === undefined) {
      throw new RunnerLoadError('UNKNOWN_RUNNER', message<TargetCode>('target.noSuchMutant', { name, known: [...MUTANTS, ...QUEUE_MUTANTS, ...LIMIT_MUTANTS].map((m) => `mutant:${m.name}`).join(', ') }));
    }
    return { kind: 'mutant', name: mutant };
  }
  return { kind: 'file', file: name === 'learner' ? LEARNER_FILE : isAbsolute(name) ? name : resolve(cwd, name) };
}

/** How a source is named in messages, as the user gave it. */
export function labelOf(name: string | undefined): string {
  return name === undefined ? 'reference' : name;
}

/**
 * What a learner's file holds — a runner (the first exercise) or a worker (the second) — asked of a box of its
 * own; null when it does not load (whoever runs it next says why).
 */
export async function fileKind(file: string, options: BoxOptions = {}): Promise<'runner' | 'worker' | null> {
  if (!existsSync(file)) return null;
  const opened = await Box.open(file, options);
  if (opened.kind !== 'ready') return null;
  await opened.box.dispose();
  return opened.worker !== undefined ? 'worker' : 'runner';
}

const NO_HOOKS: RunHooks = { beginRun: async () => {}, endRun: async () => ({ output: NOTHING_PRINTED, loss: null }) };

/**
 * A runner, ready to be run: the reference and the mutants in this thread; a file in a box of its own, opened
 * now (so that a file that does not load is known before anything runs) and again after it is lost. Throws
 * RunnerLoadError when the source names nothing (an unknown mutant, no such file), RunnerLoadFailed when the
 * file's module could not be loaded in its box.
 */
export interface OpenOptions extends BoxOptions {
  /** Told what the learner's code prints — while it loads, and in each run — as soon as a run ends (then endRun says nothing). */
  onOutput?: (printed: Printed) => void;
}

export async function openRunner(source: RunnerSource, label: string, options: OpenOptions = {}): Promise<OpenedRunner> {
  if (source.kind === 'reference') return { runner: ReferenceRunner, label, source, name: ReferenceRunner.name, hooks: null, ...NO_HOOKS, close: async () => {} };
  if (source.kind === 'mutant') {
    const mutant = mutantNamed(source.name);
    if (mutant === undefined) throw new RunnerLoadError('UNKNOWN_RUNNER', message<TargetCode>('target.noSuchMutantNamed', { name: source.name }));
    const queue = { ...(mutant.queue ? { queue: mutant.queue } : {}), ...(mutant.worker ? { worker: mutant.worker } : {}) };
    return { runner: mutant.runner, tool: mutant.tool, ...queue, label, source, name: mutant.runner.name, hooks: null, ...NO_HOOKS, close: async () => {} };
  }
  const file = resolve(source.file);
  if (!existsSync(file)) throw new RunnerLoadError('NO_SUCH_FILE', message<TargetCode>('target.noSuchRunnerFile', { label, file }));
  const timeoutMs = options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  const open = async (): Promise<{ box: Box; name: string; shipped: Shipped | null; worker?: { fence: unknown } }> => {
    const opened = await Box.open(file, options);
    if (opened.kind === 'ready') return { box: opened.box, name: opened.runnerName, shipped: opened.shipped, ...(opened.worker ? { worker: opened.worker } : {}) };
    if (opened.kind === 'load_error') throw new RunnerLoadFailed(opened.error.message, opened.error, null);
    throw new RunnerLoadFailed(describeLoss(opened.loss, options.loadTimeoutMs ?? timeoutMs), null, opened.loss);
  };
  const forward = (box: Box): Printed => {
    const output = box.takeOutput();
    if (options.onOutput === undefined || (output.text === '' && !output.cut)) return output;
    options.onOutput(output);
    return NOTHING_PRINTED;
  };
  let current = await open();
  forward(current.box);
  const hooks: RunHooks = {
    async beginRun(memo) {
      if (current.box.gone) {
        await current.box.dispose();
        current = await open();
        forward(current.box);
      }
      current.box.beginRun(memo ?? null);
    },
    async endRun() {
      current.box.endRun();
      const loss = await current.box.lost();
      return { output: forward(current.box), loss };
    },
  };
  if (current.worker !== undefined) {
    // The second exercise: the reference runner runs each task; the learner's class is the queue it runs on,
    // in a box per worker.
    const fence = current.worker.fence;
    if (typeof fence !== 'string' || fence.trim() === '') {
      await current.box.dispose();
      const said = message<BoxCode>('box.worker.noFence', { name: current.name });
      throw new RunnerLoadFailed(said, { name: 'NotImplementedError', message: said }, null, 'worker');
    }
    const boxes = new WorkerBoxes(current.box, async () => {
      const next = await open();
      forward(next.box);
      return next.box;
    });
    const workerHooks: RunHooks = {
      beginRun: () => boxes.beginRun(),
      async endRun() {
        const ended = await boxes.endRun();
        const printed = ended.boxes.map(forward);
        return { output: { text: printed.map((p) => p.text).join(''), cut: printed.some((p) => p.cut) }, loss: ended.loss };
      },
    };
    return {
      runner: ReferenceRunner,
      queue: boxedQueueClass(boxes, current.name, fence),
      isWorker: true,
      label,
      file,
      source,
      name: current.name,
      shipped: current.shipped,
      hooks: workerHooks,
      ...workerHooks,
      close: () => boxes.close(),
    };
  }
  return {
    runner: boxedRunnerClass(() => current.box, current.name),
    label,
    file,
    source,
    name: current.name,
    shipped: current.shipped,
    hooks,
    ...hooks,
    async check(scripts) {
      if (current.box.gone) {
        await current.box.dispose();
        current = await open();
        forward(current.box);
      }
      return current.box.check(scripts);
    },
    close: () => current.box.dispose(),
  };
}
