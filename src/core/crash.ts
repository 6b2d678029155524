/**
 * A simulated process crash. It is neither a TransientError nor a ContractError: the process is gone.
 * The harness has already closed both database connections when this is thrown, so anything the runner
 * tries after it fails; and the harness recovers even if a runner's `catch` swallowed it.
 */
import { brandOf, hasBrand, setBrand } from './brand.js';
import { codeText, type Message } from './message.js';

const CRASH = brandOf('Crash');

export type CrashPoint = 'crash_before_commit' | 'crash_after_commit' | 'crash_after_event' | 'worker_crash';

export class Crash extends Error {
  override readonly name = 'Crash';
  readonly point: CrashPoint;
  /** Where it struck, as a message (the trace's `crash` event carries it; its code text is the `.message`). */
  readonly said: Message;

  constructor(point: CrashPoint, said: Message) {
    super(codeText(said));
    this.point = point;
    this.said = said;
    setBrand(this, CRASH);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, CRASH);
  }
}
