/**
 * A runner file is the learner's code, run in faultlab's own process by `faultlab run --runner FILE`.
 * While it is loaded and run it is contained: what it prints (console.*, process.stdout/stderr.write) goes
 * to stderr, so stdout stays faultlab's (one JSON document under --json); and process.exit throws instead
 * of ending the process, so a runner cannot end a run silently (at import it is bad input, in step() the
 * run fails with the runner's error). A stray timer cannot keep the process alive: the CLI exits as soon
 * as its output is written (main.ts). faultlab's own output never passes through process.stdout.write
 * (io.ts took the stream's write before any runner was loaded).
 */
import { format } from 'node:util';
import { t } from '../core/i18n/index.js';
import type { RunnerClass, RunnerDeps } from '../runner/BaseRunner.js';

/** What a runner's `process.exit(code)` becomes: an error thrown where it was called. */
export class RunnerExitError extends Error {
  override readonly name = 'RunnerExitError';
  readonly exitCode: unknown;

  constructor(code: unknown) {
    super(t('cli.runner.calledExit', { code: code === undefined ? '' : format('%o', code) }));
    this.exitCode = code;
  }
}

export interface Containment {
  /** Put process.stdout, process.stderr, console and process.exit back as they were. */
  release(): void;
}

type Write = typeof process.stdout.write;

let active = 0;
let holdUntilExit = false;

/**
 * In a real process (runCli), a runner's code stays contained until the process exits: a timer it left
 * may still fire between the last output and the exit, and must find stdout and process.exit guarded.
 */
export function holdContainmentUntilExit(): void {
  holdUntilExit = true;
}

/** Whether a runner file's code is contained right now (its stray errors are the runner's, not faultlab's). */
export function isContained(): boolean {
  return active > 0;
}

export function containRunnerCode(): Containment {
  const saved = { stdout: process.stdout.write, exit: process.exit, console: { ...console } };
  const toStderr = process.stderr.write.bind(process.stderr) as Write;
  // console.* writes through process.stdout.write, so one replacement covers both.
  process.stdout.write = toStderr;
  for (const method of ['log', 'info', 'debug', 'dir', 'table'] as const) {
    console[method] = (...args: unknown[]) => void toStderr(`${format(...args)}\n`);
  }
  process.exit = ((code?: unknown) => {
    throw new RunnerExitError(code);
  }) as typeof process.exit;
  let released = false;
  active += 1;
  return {
    release() {
      if (released || holdUntilExit) return;
      released = true;
      active -= 1;
      process.stdout.write = saved.stdout;
      process.exit = saved.exit;
      Object.assign(console, saved.console);
    },
  };
}

/** A runner file's constructor threw: outside step(), where the harness does not catch. */
export class RunnerConstructorError extends Error {
  override readonly name = 'RunnerConstructorError';

  constructor(cause: unknown) {
    const what = cause instanceof Error ? `${cause.name}: ${cause.message.split('\n')[0]}` : String(cause);
    super(what, { cause });
  }
}

/** The runner class with its constructor's errors marked as the runner's, so a run can fail with them. */
export function markConstructorErrors(Runner: RunnerClass): RunnerClass {
  const Marked = class {
    constructor(deps: RunnerDeps) {
      try {
        return new Runner(deps);
      } catch (error) {
        throw new RunnerConstructorError(error);
      }
    }
  } as unknown as RunnerClass;
  Object.defineProperty(Marked, 'name', { value: Runner.name });
  return Marked;
}
