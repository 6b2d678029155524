/**
 * The torture's worker processes (docs/spec.md §19): one place per worker, the process in it now and its lives so
 * far. A process is started on the worker's entry (worker.ts) with its configuration on its command line, its pid
 * written to the run folder's list (for the start-up sweep, src/core/tempDir.ts), and it says over IPC when it is
 * ready and what it has counted. The driver sends it signals through here: SIGKILL (wait until it is gone, start the
 * next life), SIGSTOP and, later, SIGCONT. A process that ends without being killed is a defect of faultlab's: it is
 * listed, and started again — unless it never got ready, which stops the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../../core/paths.js';
import type { LifeCounts } from '../../torture/ProcessLife.js';
import type { WorkerError } from '../../torture/report.js';
import { RUN_ENDED_EXIT, type WorkerConfig, type WorkerReport } from './ipc.js';

/** A defect of faultlab's that stops the run: a worker that cannot start, the sweeper's error. */
export class TortureAborted extends Error {
  override readonly name = 'TortureAborted';
}

/** `--join` names no torture's schema on the server. */
export class NoRunToJoin extends Error {
  override readonly name = 'NoRunToJoin';
  constructor(readonly schema: string) {
    super(`no torture's schema ${schema}`);
  }
}

/** A joining run's (`--join`) schema is gone: the run it joined has ended. Not a defect: the joining run ends too. */
export class JoinedRunEnded extends Error {
  override readonly name = 'JoinedRunEnded';
}

const noCounts = (): LifeCounts => ({ grants: 0, done: 0, failed: 0, staleRefused: 0, busyRetries: 0 });

/** The worker's entry as this copy of faultlab runs: its bundle, its compiled module, or its source through tsx (the tests). */
function workerCommand(): string[] {
  const here = import.meta.url;
  if (here.endsWith('.cjs')) {
    const bundled = join(PACKAGE_ROOT, 'dist', 'bundle', 'torture-worker.load.cjs');
    if (existsSync(bundled)) return [bundled];
  }
  if (!here.endsWith('.ts')) return [join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'torture', 'worker.js')];
  return ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('./worker.ts', here))];
}

/** One worker's place: the process in it now, its lives so far, what they counted. */
class Slot {
  child: ChildProcess | null = null;
  life = 0;
  ready = false;
  /** On PostgreSQL, this life's server backend (its pid on the server), once ready. */
  backend: number | null = null;
  paused = false;
  /** A signal of the driver's is ending this process: its exit is expected. */
  killing = false;
  cont: NodeJS.Timeout | null = null;
  exited: Promise<void> = Promise.resolve();
  /** The counts of the lives before this one, and this one's latest. */
  readonly past: LifeCounts = noCounts();
  current: LifeCounts = noCounts();
  stderr = '';

  constructor(readonly name: string) {}

  /** Up: started, ready, not stopped — a signal may be sent. */
  get up(): boolean {
    return this.child !== null && this.ready && !this.paused && !this.killing;
  }

  endLife(): void {
    for (const key of Object.keys(this.past) as Array<keyof LifeCounts>) this.past[key] += this.current[key];
    this.current = noCounts();
  }
}

export class WorkerProcesses {
  readonly errors: WorkerError[] = [];
  readonly #slots: Slot[];
  readonly #config: Omit<WorkerConfig, 'name' | 'life'>;
  readonly #children: string;
  #stopping = false;
  #aborted: Error | null = null;
  readonly #waiters = new Set<() => void>();

  readonly #env: NodeJS.ProcessEnv | undefined;

  /**
   * `children`: the run folder's list of pids (CHILDREN_FILE); `env`: the workers' environment, if not this
   * process's; `prefix`: before each worker's name (`w1`…) — a joining run's workers must not take the names, nor
   * the tool's streams, of the run they join.
   */
  constructor(count: number, config: Omit<WorkerConfig, 'name' | 'life'>, children: string, how: { env?: NodeJS.ProcessEnv; prefix?: string } = {}) {
    const { env, prefix = '' } = how;
    this.#slots = Array.from({ length: count }, (_, i) => new Slot(`${prefix}w${i + 1}`));
    this.#config = config;
    this.#children = children;
    this.#env = env;
  }

  /** Start every worker, and resolve once all are ready (or reject after `withinMs`). */
  async start(withinMs: number): Promise<void> {
    for (const slot of this.#slots) this.#start(slot);
    const late = setTimeout(() => this.abort(new TortureAborted(`the workers were not ready after ${withinMs} ms`)), withinMs);
    try {
      await this.#until(() => this.#slots.every((slot) => slot.ready));
    } finally {
      clearTimeout(late);
    }
  }

  /** SIGKILL worker `i` once it is up; resolves when the process is gone and the next life has been started. */
  async kill(i: number): Promise<void> {
    const slot = this.#slots[i]!;
    await this.#until(() => slot.up);
    slot.killing = true;
    slot.child!.kill('SIGKILL');
    await slot.exited; // the process is gone, and with it its connection: what it had not committed is rolled back
    this.#start(slot);
  }

  /**
   * On PostgreSQL: end worker `i`'s server connection once it is up (`terminate` is handed its backend's pid), and
   * let the worker die of it — what it had not committed is rolled back by the server, as on a SIGKILL; a SIGKILL
   * follows if it has not ended within `withinMs`. Resolves when it is gone and the next life has been started.
   */
  async sever(i: number, terminate: (backend: number) => Promise<void>, withinMs: number): Promise<void> {
    const slot = this.#slots[i]!;
    await this.#until(() => slot.up);
    slot.killing = true;
    const child = slot.child!;
    const late = setTimeout(() => child.kill('SIGKILL'), withinMs);
    try {
      if (slot.backend !== null) await terminate(slot.backend);
      else child.kill('SIGKILL');
      await slot.exited;
    } finally {
      clearTimeout(late);
    }
    this.#start(slot);
  }

  /** SIGSTOP worker `i` once it is up; SIGCONT `ms` later (unless it is gone by then). */
  async pause(i: number, ms: number): Promise<void> {
    const slot = this.#slots[i]!;
    await this.#until(() => slot.up);
    const child = slot.child!;
    child.kill('SIGSTOP');
    slot.paused = true;
    slot.cont = setTimeout(() => {
      slot.cont = null;
      if (slot.child === child) child.kill('SIGCONT');
      slot.paused = false;
      this.#changed();
    }, ms);
  }

  /** Resolves once no worker is stopped. */
  unpaused(): Promise<void> {
    return this.#until(() => this.#slots.every((slot) => !slot.paused));
  }

  /** Every process SIGKILLed at once, none started again: for the end, and for a stop hook (it cannot wait). */
  killAll(): void {
    this.#stopping = true;
    for (const slot of this.#slots) {
      if (slot.cont !== null) clearTimeout(slot.cont);
      slot.killing = true;
      slot.child?.kill('SIGKILL'); // a stopped process dies of SIGKILL too
    }
  }

  /** Every process killed, and gone. */
  async stop(): Promise<void> {
    this.killAll();
    await Promise.all(this.#slots.map((slot) => slot.exited));
  }

  /** What every life of every worker counted (as last reported). */
  counts(): LifeCounts {
    const sum = noCounts();
    for (const slot of this.#slots) for (const key of Object.keys(sum) as Array<keyof LifeCounts>) sum[key] += slot.past[key] + slot.current[key];
    return sum;
  }

  /** Stop the run from inside: whoever waits on a worker gets `error`. */
  abort(error: Error): void {
    this.#aborted ??= error;
    this.#changed();
  }

  get aborted(): Error | null {
    return this.#aborted;
  }

  #start(slot: Slot): void {
    slot.life += 1;
    Object.assign(slot, { ready: false, backend: null, paused: false, killing: false, stderr: '' });
    const config: WorkerConfig = { ...this.#config, name: slot.name, life: slot.life };
    const child = spawn(process.execPath, [...workerCommand(), JSON.stringify(config)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], ...(this.#env ? { env: this.#env } : {}) });
    slot.child = child;
    child.on('error', (error) => this.abort(error)); // it could not be started at all
    if (child.pid !== undefined) appendFileSync(this.#children, `${child.pid}\n`); // for the sweep, should the driver be killed outright
    child.stderr!.on('data', (chunk: Buffer) => (slot.stderr = (slot.stderr + chunk.toString()).slice(-2000)));
    let said: WorkerError['said'] | null = null;
    child.on('message', (report: WorkerReport) => {
      if (report.type === 'ready') Object.assign(slot, { ready: true, backend: report.backend ?? null });
      else if (report.type === 'counts') slot.current = report.counts;
      else said = typeof report.said === 'string' ? `${report.name}: ${report.said}` : report.said;
      this.#changed();
    });
    slot.exited = new Promise<void>((resolve) =>
      child.on('exit', (code, signal) => {
        const { killing, ready } = slot;
        slot.child = null;
        slot.ready = false;
        slot.endLife();
        if (!killing && code === RUN_ENDED_EXIT) this.abort(new JoinedRunEnded('the run joined has ended'));
        else if (!killing) {
          this.errors.push({ worker: slot.name, exit: signal ?? String(code), said: said ?? slot.stderr.trim().split('\n').slice(-3).join('\n') });
          if (!ready) this.abort(new TortureAborted(`worker ${slot.name} ended before it was ready (${signal ?? code}): ${slot.stderr.trim()}`));
          else if (!this.#stopping) this.#start(slot); // started again like a killed one; the report lists it
        }
        resolve();
        this.#changed();
      }),
    );
  }

  /** Resolves once `ready()` holds (looked at whenever a worker's state changes); rejects once the run is aborted. */
  #until(ready: () => boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const look = () => {
        if (this.#aborted !== null) reject(this.#aborted);
        else if (ready()) resolve();
        else return;
        this.#waiters.delete(look);
      };
      this.#waiters.add(look);
      look();
    });
  }

  #changed(): void {
    for (const look of [...this.#waiters]) look();
  }
}
