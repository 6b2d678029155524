/**
 * The two kinds of failure a tool call can end in (docs/spec.md §3), and the one bit that matters for a retry:
 * is the failure *definite* (the effect surely did not happen) or *indefinite* (it may have)?
 *
 * - TransientError: retryable. `definite` tells whether the tool ran: a request refused before the tool
 *   ran is definite; a lost reply (the tool committed, the answer never came back) is indefinite.
 *   The runner cannot tell them apart from the class alone, which is why a retry must reuse the key.
 * - ContractError: never retried. The request is wrong for the current state; the tool changed nothing.
 *
 * The classes recognise instances by a global brand rather than by prototype, so `instanceof` also holds
 * for an error thrown by another copy of this module (a learner's runner loaded from source by tsx while
 * the simulator runs from the compiled build).
 */
import { brandOf, hasBrand, setBrand } from '../core/brand.js';

export type ContractCode =
  | 'NOT_FOUND'
  | 'UNKNOWN_ITEM'
  | 'PAYLOAD_CONFLICT'
  | 'STALE_VERSION'
  | 'INSUFFICIENT_STOCK'
  | 'NOT_AUTHORIZED'
  | 'INVALID_ACTION'
  /** A holder's write carried a fencing token that is no longer the task's (src/queue/QueueStore.ts): refused, nothing written. */
  | 'STALE_FENCE'
  // docs/spec.md §13: a request after its deadline, a key whose receipt was purged, a task already finished;
  // §14.5: a release with no reservation to release
  | 'EXPIRED'
  | 'RECEIPT_PURGED'
  | 'TASK_FINISHED'
  | 'NOTHING_TO_RELEASE';

const TRANSIENT = brandOf('TransientError');
const CONTRACT = brandOf('ContractError');
const branded = hasBrand;

export class TransientError extends Error {
  override readonly name = 'TransientError';
  readonly retryable = true;
  /** true: the tool never ran, nothing changed. false: the tool may have committed (a lost reply). */
  readonly definite: boolean;

  constructor(message: string, options: { definite: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.definite = options.definite;
    setBrand(this, TRANSIENT);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return branded(value, TRANSIENT);
  }
}

export class ContractError extends Error {
  override readonly name = 'ContractError';
  readonly retryable = false;
  /** A refusal is always definite: the tool checked and changed nothing. */
  readonly definite = true;
  readonly code: ContractCode;
  readonly detail: string;

  constructor(code: ContractCode, detail = '') {
    super(detail ? `${code}: ${detail}` : code);
    this.code = code;
    this.detail = detail;
    setBrand(this, CONTRACT);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return branded(value, CONTRACT);
  }
}

export function isTransientError(value: unknown): value is TransientError {
  return branded(value, TRANSIENT);
}

export function isContractError(value: unknown): value is ContractError {
  return branded(value, CONTRACT);
}
