/**
 * Typed failures of the durability pillars. Each has a stable `code`, and each says whether the guarded
 * effect *definitely did not happen* (`definite: true`) or *might have* (`definite: false`) — the one bit
 * that decides whether trying again is safe. Configuration errors name the field, the allowed range and
 * the value given, at load time.
 *
 * Instances are recognised by a global brand rather than by prototype, so a guard also holds for an error
 * thrown by another copy of this module (source loaded by tsx next to the compiled build).
 */
import { brandOf, hasBrand, setBrand } from '../core/brand.js';
import { codeText, message, type Message, type Param } from '../core/message.js';
import type { DurabilityCode } from './codes.js';

export type DurabilityErrorCode =
  | 'CONFIG_INVALID'
  | 'POLICY_INVALID'
  | 'BREAKER_CONFIG_INVALID'
  | 'UNKNOWN_DEPENDENCY'
  | 'CIRCUIT_OPEN'
  | 'INVALID_KEY_PART'
  | 'STORE_BUSY'
  | 'CHECKPOINT_NOT_FOUND'
  | 'CHECKPOINT_EXPIRED'
  | 'CHECKPOINT_INVALID_TTL'
  | 'CHECKPOINT_TASK_MISMATCH'
  | 'DLQ_NOT_FOUND'
  | 'DLQ_INVALID_TRANSITION'
  | 'DLQ_EXPIRED'
  | 'DLQ_INVALID_TTL';

/** Why a failure happened, and whether its effect definitely did not happen (`definite`). */
export interface OperationError {
  code: string;
  message: string;
  /** true: the dependency surely did not apply the effect; false: it may have (a lost reply). */
  definite: boolean;
}

const BRAND = brandOf('DurabilityError');

export class DurabilityError extends Error {
  override readonly name: string = 'DurabilityError';
  readonly code: DurabilityErrorCode;
  /** true: the effect this call guarded definitely did not happen; false: it might have. */
  readonly definite: boolean;
  /** What went wrong as a message, for whoever shows it (a ConfigError's; the others say it in `.message`). */
  readonly said?: Message;

  constructor(code: DurabilityErrorCode, message: string | Message, options: { definite?: boolean; cause?: unknown } = {}) {
    super(codeText(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.definite = options.definite ?? true;
    if (typeof message !== 'string') this.said = message;
    setBrand(this, BRAND);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, BRAND);
  }
}

/** True for any durability error; with `code`, only for that code. */
export function isDurabilityError(value: unknown, code?: DurabilityErrorCode): value is DurabilityError {
  if (!hasBrand(value, BRAND)) return false;
  return code === undefined || (value as DurabilityError).code === code;
}

/** A configuration value outside its allowed range. Thrown at load time or by an upsert, never later. */
export class ConfigError extends DurabilityError {
  override readonly name: string = 'ConfigError';
  /** Dotted path of the bad field, e.g. `retry.policies.mcp_call.max_delay_ms` ('' for the top level of the file). */
  readonly field: string;
  /** The allowed range or set, as a message, e.g. `an integer >= 1`. */
  readonly allowed: Message<DurabilityCode>;
  readonly given: unknown;
  declare readonly said: Message<DurabilityCode>;

  constructor(field: string, allowed: Message<DurabilityCode>, given: unknown, code: DurabilityErrorCode = 'CONFIG_INVALID') {
    super(code, message('config.mustBe', { field: field === '' ? message('config.topLevel') : field, allowed, given: describeGiven(given) }));
    this.field = field;
    this.allowed = allowed;
    this.given = given;
  }
}

/** A retry policy that cannot work (docs/pillars.md §2 `validate()`); an upsert that throws this leaves the old policy. */
export class PolicyValidationError extends ConfigError {
  override readonly name = 'PolicyValidationError';
  constructor(field: string, allowed: Message<DurabilityCode>, given: unknown) {
    super(field, allowed, given, 'POLICY_INVALID');
  }
}

/** A breaker configuration that cannot work (docs/pillars.md §3); an upsert that throws this leaves the old one. */
export class BreakerConfigError extends ConfigError {
  override readonly name = 'BreakerConfigError';
  constructor(field: string, allowed: Message<DurabilityCode>, given: unknown) {
    super(field, allowed, given, 'BREAKER_CONFIG_INVALID');
  }
}

export class UnknownDependencyError extends DurabilityError {
  override readonly name = 'UnknownDependencyError';
  readonly dependency: string;
  constructor(dependency: string, known: readonly string[]) {
    super(
      'UNKNOWN_DEPENDENCY',
      `no circuit breaker is configured for dependency "${dependency}" (configured: ${known.join(', ') || 'none'}); ` +
        'add it under circuit_breaker.dependencies in durability.yaml',
    );
    this.dependency = dependency;
  }
}

/** The route is closed: the call was refused before it reached the dependency, so nothing happened. */
export class CircuitOpenError extends DurabilityError {
  override readonly name = 'CircuitOpenError';
  readonly dependency: string;
  readonly state: 'open' | 'half_open';
  /** Virtual milliseconds until a call could be admitted again (reset timeout, or a probe slot re-arming). */
  readonly retryAfterMs: number;
  constructor(dependency: string, state: 'open' | 'half_open', retryAfterMs: number) {
    super(
      'CIRCUIT_OPEN',
      state === 'open'
        ? `circuit for ${dependency} is open: refused without calling it; it admits a probe in ${retryAfterMs} ms`
        : `circuit for ${dependency} is half-open and every probe slot is taken; refused without calling it`,
      { definite: true },
    );
    this.dependency = dependency;
    this.state = state;
    this.retryAfterMs = retryAfterMs;
  }
}

/** `agent_id` or `operation_type` would make an ambiguous key (docs/pillars.md §1, ours); made where the key is. */
export { KeyPartError } from '../core/key.js';

/** Another connection holds the write lock; this call wrote nothing and may simply be tried again. */
export class StoreBusyError extends DurabilityError {
  override readonly name = 'StoreBusyError';
  constructor(what: string, cause: unknown) {
    super('STORE_BUSY', `${what}: another connection holds the write lock; nothing was written`, {
      definite: true,
      cause,
    });
  }
}

export class CheckpointError extends DurabilityError {
  override readonly name = 'CheckpointError';
}

export class DlqError extends DurabilityError {
  override readonly name = 'DlqError';
}

/** The value a configuration field was given, as the message shows it: its JSON, or that it is missing. */
export function describeGiven(value: unknown): Param {
  if (value === undefined) return message<DurabilityCode>('config.missing');
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  return JSON.stringify(value) ?? String(value);
}
