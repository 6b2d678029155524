/**
 * A simulated process crash. It is neither a TransientError nor a ContractError: the process is gone.
 * The harness has already closed both database connections when this is thrown, so anything the runner
 * tries after it fails; and the harness recovers even if a runner's `catch` swallowed it.
 */
const CRASH = Symbol.for('faultlab.Crash');

export type CrashPoint = 'crash_before_commit' | 'crash_after_commit' | 'crash_after_event';

export class Crash extends Error {
  override readonly name = 'Crash';
  readonly point: CrashPoint;

  constructor(point: CrashPoint, message: string) {
    super(message);
    this.point = point;
    Object.defineProperty(this, CRASH, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CRASH] === true;
  }
}
