/**
 * A simulated process crash. It is neither a TransientError nor a ContractError: the process is gone.
 * The harness has already closed both database connections when this is thrown, so anything the runner
 * tries after it fails; and the harness recovers even if a runner's `catch` swallowed it.
 */
import { brandOf, hasBrand, setBrand } from './brand.js';

const CRASH = brandOf('Crash');

export type CrashPoint = 'crash_before_commit' | 'crash_after_commit' | 'crash_after_event';

export class Crash extends Error {
  override readonly name = 'Crash';
  readonly point: CrashPoint;

  constructor(point: CrashPoint, message: string) {
    // No stack: a crash is the harness's own control flow, never reported as a runner's error (that is only
    // ever something else the runner threw), and capturing one cost ~2 % of an exploration.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.point = point;
    setBrand(this, CRASH);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, CRASH);
  }
}
