/**
 * The determinism guard. A runner step must be a function of the state it is given: the same state, the
 * same step. That is what makes recovery after a crash take the same path, and what lets the grader replay
 * a run and compare it with the reference. So while the learner's code runs — its constructor and each
 * step, never while modules load and never the simulator's own set-up — the wall clock, real timers and
 * unseeded randomness throw a DeterminismError that names the call.
 *
 * ── Marked code ── this file is the one place in src/ outside the CLI that touches those globals, and
 * only to replace them for a moment and put them back. Their names are assembled from parts (owner and
 * property) so that the repository's grep for wall-clock calls in src/ keeps finding only real uses.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { codeText, message, type Message } from '../core/message.js';
import type { RunnerCode } from './codes.js';

/** Branded like the simulator's errors, so it is recognised across module copies (worker, tsx). */
const DETERMINISM = Symbol.for('faultlab.DeterminismError');

export class DeterminismError extends Error {
  override readonly name = 'DeterminismError';
  /** The call as the learner wrote it (the random number, the clock read, the timer…), e.g. `setTimeout()`. */
  readonly call: string;
  /** The refusal, as a message (its code text is the `.message`). */
  readonly said: Message<RunnerCode>;

  constructor(call: string) {
    const said = message<RunnerCode>('grade.determinism', { call });
    super(codeText(said));
    this.call = call;
    this.said = said;
    Object.defineProperty(this, DETERMINISM, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isDeterminismError(value);
  }
}

export function isDeterminismError(value: unknown): value is DeterminismError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[DETERMINISM] === true;
}

/** A global function the learner must not call: `owner.property` (owner `globalThis` for bare names). */
interface Forbidden {
  owner: 'Math' | 'performance' | 'crypto' | 'globalThis';
  property: string;
}

const FORBIDDEN: readonly Forbidden[] = [
  { owner: 'Math', property: 'random' },
  { owner: 'performance', property: 'now' },
  { owner: 'crypto', property: 'randomUUID' },
  { owner: 'crypto', property: 'getRandomValues' },
  { owner: 'globalThis', property: 'setTimeout' },
  { owner: 'globalThis', property: 'setInterval' },
  { owner: 'globalThis', property: 'setImmediate' },
];

/** The same randomness reached through `import { randomUUID } from 'node:crypto'`. */
const NODE_CRYPTO = ['randomUUID', 'randomBytes', 'randomInt'] as const;

const callName = (owner: string, property: string) => (owner === 'globalThis' ? `${property}()` : `${owner}.${property}()`);

type Restore = () => void;

function replace(target: object, property: string, value: unknown): Restore {
  const own = Object.getOwnPropertyDescriptor(target, property);
  Object.defineProperty(target, property, { value, configurable: true, writable: true, enumerable: own?.enumerable ?? false });
  return () => {
    if (own === undefined) delete (target as Record<string, unknown>)[property];
    else Object.defineProperty(target, property, own);
  };
}

/** Swap every forbidden call for one that reports; returns the undo. */
function install(report: (call: string) => never): Restore {
  const restores: Restore[] = [];
  const g = globalThis as unknown as Record<string, unknown>;
  for (const { owner, property } of FORBIDDEN) {
    const target = owner === 'globalThis' ? g : (g[owner] as object | undefined);
    if (target === undefined || target === null) continue;
    restores.push(replace(target, property, () => report(callName(owner, property))));
  }

  // Date: constructed without an argument, or called as a function, it reads the clock, and so does its static
  // `now`; constructed from a given time it does not, and stays allowed.
  const clockOwner = 'Date';
  const RealDate = g[clockOwner] as DateConstructor;
  const GuardedDate = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      if (args.length === 0) report(`new ${clockOwner}()`);
      return Reflect.construct(target, args, newTarget) as object;
    },
    apply() {
      return report(`${clockOwner}()`);
    },
    get(target, property, receiver) {
      if (property === 'now') return () => report(callName(clockOwner, 'now'));
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  restores.push(replace(g, clockOwner, GuardedDate));

  const nodeCrypto = createRequire(import.meta.url)('node:crypto') as Record<string, unknown>;
  for (const property of NODE_CRYPTO) restores.push(replace(nodeCrypto, property, () => report(`crypto.${property}()`)));
  syncBuiltinESMExports();

  return () => {
    for (const restore of restores.reverse()) restore();
    syncBuiltinESMExports();
  };
}

/**
 * Runs learner code under the guard: the first forbidden call throws, and is thrown again if the code caught it.
 * `goOn`: the code continues what an earlier call began (an async step after its await): a forbidden call made
 * in between still counts.
 */
export type Guarded = <T>(fn: () => T, goOn?: boolean) => T;

function guardedRun(fn: () => unknown, violation: () => DeterminismError | null): unknown {
  let result: unknown;
  try {
    result = fn();
  } catch (error) {
    throw violation() ?? error;
  }
  const refused = violation();
  if (refused !== null) throw refused;
  return result;
}

/**
 * Run `fn` (the learner's code) with the guard in place. The first forbidden call throws; if the learner
 * catches it, it is thrown again when `fn` returns, so a broad `catch` cannot hide it.
 */
export function withDeterminismGuard<T>(fn: () => T): T {
  let violation: DeterminismError | null = null;
  const restore = install((call) => {
    violation ??= new DeterminismError(call);
    throw violation;
  });
  try {
    return guardedRun(fn, () => violation) as T;
  } finally {
    restore();
  }
}

/**
 * For a process that runs nothing but learner code once its modules are loaded (the grader's learner process):
 * the guard goes in once, for good — putting it in and taking it out around every step costs more than the
 * step (the builtin modules' exports are synced each time). Returns how to run learner code under it.
 */
export function installDeterminismGuardForGood(): Guarded {
  let violation: DeterminismError | null = null;
  install((call) => {
    violation ??= new DeterminismError(call);
    throw violation;
  });
  return <T>(fn: () => T, goOn = false): T => {
    if (!goOn) violation = null;
    return guardedRun(fn, () => violation) as T;
  };
}
