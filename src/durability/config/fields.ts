import { ConfigError } from '../errors.js';
import { message, type Message } from '../../core/message.js';
import type { DurabilityCode } from '../codes.js';

/**
 * Small checks shared by every validator: each throws the given error class naming the field, the allowed
 * range in words and the value given (STYLE 8: bad configuration is rejected at load time, and says why).
 */

export type FieldErrorClass = new (field: string, allowed: Message<DurabilityCode>, given: unknown) => ConfigError;

type Said = Message<DurabilityCode>;

export interface NumberRule {
  integer?: boolean;
  /** Inclusive lower bound. */
  min?: number;
  /** Exclusive lower bound. */
  above?: number;
  /** Inclusive upper bound. */
  max?: number;
}

/** A rule in words, as a message: `an integer >= 1`, `a number in (0, 1]`. */
export function describeRule(rule: NumberRule): Said {
  const kind = message(rule.integer ? 'config.integer' : 'config.number');
  if (rule.above !== undefined && rule.max !== undefined) return message('config.openClosed', { kind, low: rule.above, high: rule.max });
  if (rule.min !== undefined && rule.max !== undefined) return message('config.closed', { kind, low: rule.min, high: rule.max });
  const bounds: Said[] = [];
  if (rule.above !== undefined) bounds.push(message('config.bound.above', { n: rule.above }));
  if (rule.min !== undefined) bounds.push(message('config.bound.atLeast', { n: rule.min }));
  if (rule.max !== undefined) bounds.push(message('config.bound.atMost', { n: rule.max }));
  return bounds.length === 0 ? kind : message('config.bounded', { kind, bounds: bounds.reduce((first, second) => message('config.bound.and', { first, second })) });
}

export function checkNumber(Err: FieldErrorClass, field: string, value: unknown, rule: NumberRule): number {
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!rule.integer || Number.isInteger(value)) &&
    (rule.min === undefined || value >= rule.min) &&
    (rule.above === undefined || value > rule.above) &&
    (rule.max === undefined || value <= rule.max);
  if (!ok) throw new Err(field, describeRule(rule), value);
  return value as number;
}

export function checkString(Err: FieldErrorClass, field: string, value: unknown, what?: Said): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Err(field, what ?? message('config.nonEmptyString'), value);
  return value;
}

export function checkBoolean(Err: FieldErrorClass, field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new Err(field, message('config.boolean'), value);
  return value;
}

export function checkStringList(Err: FieldErrorClass, field: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === '')) {
    throw new Err(field, message('config.errorCodes'), value);
  }
  return [...(value as string[])];
}

export function checkOneOf<T extends string>(Err: FieldErrorClass, field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) throw new Err(field, message('config.oneOf', { allowed: allowed.join(', ') }), value);
  return value as T;
}
